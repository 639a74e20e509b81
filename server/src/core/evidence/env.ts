import type { Setting } from '../model/types';
import type { EnvView } from '../workspace/env-index';
import type { EnvReadRef } from '../workspace/env-facts';
import { isDotenvTemplate } from '../workspace/env-facts';

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/**
 * The reads of the env variable `setting` defines (in the document at workspace-relative `path`) that
 * its value reaches or stands for, this document's own included:
 * - a loaded definition (`.env`, an export, a Compose service): `EnvView.readersOf`;
 * - a dotenv template (`.env.example`, see `isDotenvTemplate`), which no loader reads but which a user
 *   copies to `.env` in the same folder: the reads that `.env` would reach, i.e. reads in that folder
 *   or below (python-dotenv `find_dotenv()` walks up from the caller; dotenv loaders read the working
 *   directory's `.env`). So `OPENAI_API_BASE` in `.env.example` is read by the project's
 *   `os.getenv("OPENAI_API_BASE")` just as the same line in `.env` is.
 */
export function envReadersOf(env: EnvView, path: string, setting: Setting): EnvReadRef[] {
  if (!isDotenvTemplate(path)) return env.readersOf(setting.key, setting.keyRange.start);
  const dir = dirOf(path);
  return env.reads(setting.key).filter((r) => dir === '' || r.at.path.startsWith(`${dir}/`));
}
