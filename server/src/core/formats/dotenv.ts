import { parse } from 'dotenv';
import { BudgetExceeded } from '../budget';
import { emptyExtraction, type Extraction, type Loader, type Setting } from '../model/types';
import { readCompose } from './dotenv/compose';
import { readDockerEnvFile } from './dotenv/docker';
import type { LoadedEntry } from './dotenv/entry';
import { readPosixShell } from './dotenv/shell';
import { readPythonDotenv } from './dotenv/python';
import { scanDotenv } from './dotenv/scan';
import { contentLineCount } from './size';

/**
 * Most lines with content (`contentLineCount`) a dotenv file may have before it counts as over the
 * node budget unscanned. Measured with the CLI (issue 29): 20k `OPENAI_BASE_URL`/key pairs (40k lines)
 * reach 500 MB before the 5 s budget runs out, 40k pairs 830 MB, 85k fixable lines 630 MB; past 50k
 * lines no shape was linted within the budget but some passed the 800 MB goal. Real `.env` files have
 * a few hundred lines.
 */
export const MAX_LINES = 50_000;

/**
 * The value npm dotenv 17 `parse()` yields for `key` in `statementText` (one statement, possibly
 * several lines, with its trailing line break: `KEY:⏎` needs it), or `null` when dotenv defines no
 * such own property (e.g. `__proto__`).
 */
export function nodeDotenvValue(statementText: string, key: string): string | null {
  const parsed = parse(statementText);
  return Object.prototype.hasOwnProperty.call(parsed, key) ? parsed[key] : null;
}

type OtherLoader = Exclude<Loader, 'nodeDotenv'>;

const READERS: Record<OtherLoader, (text: string) => LoadedEntry[]> = {
  pythonDotenv: readPythonDotenv,
  posixShell: readPosixShell,
  compose: readCompose,
  dockerEnvFile: readDockerEnvFile,
};

function byKeyStart(entries: LoadedEntry[]): Map<number, LoadedEntry> {
  return new Map(entries.map((entry) => [entry.keyStart, entry]));
}

/**
 * Extracts every `KEY=value` of a dotenv file (BOM removed by the caller; one is tolerated).
 * Statements are delimited as npm dotenv delimits them (see `scanDotenv`); each becomes a Setting
 * with kind `env`, group `file`, `value` = what dotenv `parse()` yields, and `loaded` = the value
 * each loader yields for the variable defined at that key offset (`null` when the loader rejects
 * the statement, reads the text differently, or stops before it). Ranges are UTF-16 offsets.
 * Comments (full-line and inline) and malformed lines (`parseProblems`) are reported too. Linear in
 * the text length. Throws only `BudgetExceeded` (`nodes`), before scanning, past `MAX_LINES`.
 */
export function extractDotenv(text: string): Extraction {
  if (contentLineCount(text) > MAX_LINES) throw new BudgetExceeded('nodes', `${MAX_LINES} .env lines`);
  const extraction = emptyExtraction();
  const scan = scanDotenv(text);
  extraction.comments = scan.comments;
  extraction.parseProblems = scan.problems;
  const loaders = Object.entries(READERS).map(([loader, read]) => [loader as OtherLoader, byKeyStart(read(text))] as const);
  for (const statement of scan.statements) {
    const { key, keyRange, valueRange, statementRange } = statement;
    const lineBreak = text.startsWith('\r\n', statementRange.end) ? 2 : 1;
    const nodeValue = nodeDotenvValue(text.slice(statementRange.start, statementRange.end + lineBreak), key);
    const loaded: Setting['loaded'] = { nodeDotenv: nodeValue };
    for (const [loader, entries] of loaders) {
      const entry = entries.get(keyRange.start);
      loaded[loader] = entry && entry.key === key ? entry.value : null;
    }
    extraction.settings.push({
      key,
      path: key,
      format: 'dotenv',
      kind: 'env',
      raw: text.slice(valueRange.start, valueRange.end),
      value: nodeValue ?? undefined,
      valueType: 'string',
      loaded,
      keyRange,
      valueRange,
      contentRange: statement.contentRange,
      quote: statement.quote,
      statementRange,
      group: 'file',
    });
  }
  return extraction;
}
