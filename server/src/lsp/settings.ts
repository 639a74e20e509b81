import { dirname } from 'node:path';
import type { Connection } from 'vscode-languageserver';
import type { LintConfig } from '../core/config/config';
import { mergeConfig } from '../core/config/config';
import type { Locale } from '../core/messages/locale';
import { say } from './messages';
import { CONFIG_FILE_NAME, ConfigError, type ConfigProblem, invalidate as invalidateConfigCache, nearestConfigFile, parseConfigText, readConfigFile } from '../node/config';

/** The configuration of one document: whether linting is on, and the merged lint config. */
export interface DocumentConfig {
  enabled: boolean;
  config: LintConfig;
  /** The `.rolloutlintrc.json` that applied, if any (absolute path). */
  rcFile?: string;
}

/**
 * The `.rolloutlintrc.json` layer for a file: `layer` is merged over the editor settings; a broken
 * file comes back as `error` (reported in the log, the settings still apply).
 */
export interface RcLayer {
  layer?: Partial<LintConfig>;
  file?: string;
  /** Why the file is ignored (no `layer`), or which of its globs were refused (with `layer`: the rest applies). */
  error?: string;
}

export type RcLoader = (absPath: string, root: string) => RcLayer;

/** Settings that map one-to-one onto `.rolloutlintrc.json` options (validated by its schema). */
export const SHARED_OPTIONS = ['rules', 'rolloutGlobs', 'jsonGlobs', 'testGlobs', 'ignore', 'extraKeys', 'extraProviders', 'maxFileBytes'] as const;

const SETTINGS_SOURCE = 'rolloutLint settings';

/**
 * Reads a `rolloutLint` settings object as a client sends it. Each option shared with
 * `.rolloutlintrc.json` is validated against that file's schema on its own; an invalid one is left
 * out and described in `problems`. `enable` defaults to true.
 */
export function settingsLayer(raw: unknown): { enabled: boolean; layer: Partial<LintConfig>; problems: string[] } {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const layer: Partial<LintConfig> = {};
  const problems: string[] = [];
  for (const option of SHARED_OPTIONS) {
    if (s[option] === undefined || s[option] === null) continue;
    try {
      const refused: ConfigProblem[] = [];
      const parsed = parseConfigText(JSON.stringify({ [option]: s[option] }), SETTINGS_SOURCE, refused);
      for (const p of refused) problems.push(`rolloutLint.${option}: ${p.jsonPath}: ${p.reason}`);
      Object.assign(layer, parsed);
    } catch (error) {
      problems.push(`rolloutLint.${option} ignored: ${error instanceof ConfigError ? error.problems.map((p) => `${p.jsonPath}: ${p.reason}`).join('; ') : (error as Error).message}`);
    }
  }
  if (layer.extraProviders) {
    layer.extraProviders = layer.extraProviders.map((p) => (p.source.startsWith(CONFIG_FILE_NAME) ? { ...p, source: SETTINGS_SOURCE } : p));
  }
  return { enabled: s.enable !== false, layer, problems };
}

/**
 * The `.rolloutlintrc.json` reader of the language server: the nearest file from the document's
 * folder up to the workspace folder root (`nearestConfigFile`), parsed and validated by
 * `readConfigFile`, cached per file until `invalidate()`.
 */
export function rcLoader(): { load: RcLoader; invalidate(): void } {
  const cache = new Map<string, RcLayer>();
  return {
    load(absPath, root) {
      const file = nearestConfigFile(dirname(absPath), root);
      if (!file) return {};
      let entry = cache.get(file);
      if (!entry) {
        try {
          const refused: ConfigProblem[] = [];
          entry = { layer: readConfigFile(file, refused), file };
          // Refused globs are reported; the rest of the file applies.
          if (refused.length) entry.error = new ConfigError(file, refused).message;
        } catch (error) {
          entry = { file, error: (error as Error).message };
        }
        cache.set(file, entry);
      }
      return entry;
    },
    invalidate() {
      cache.clear();
      invalidateConfigCache();
    },
  };
}

/** What the config provider needs from the session. */
export interface ConfigSource {
  connection: Connection;
  /** The client answers `workspace/configuration`. */
  pullsConfiguration: boolean;
  /** `false` in an untrusted workspace: `.rolloutlintrc.json` may not add providers. */
  trusted: boolean;
  loadRc: RcLoader;
  log: (message: string) => void;
  /** The language of the log lines (English when absent). */
  locale?: Locale;
}

/**
 * Effective configuration per document, cached until `invalidate()`: nearest `.rolloutlintrc.json`
 * over the client's settings for the resource (folder settings over user settings, as the client
 * merges them) over the defaults.
 */
export class ConfigProvider {
  /** Bumped on every change of settings or `.rolloutlintrc.json`; part of every result id. */
  generation = 0;
  private readonly documents = new Map<string, Promise<DocumentConfig>>();
  private readonly settings = new Map<string, Promise<ReturnType<typeof settingsLayer>>>();
  private pushed: unknown = undefined;
  private readonly reported = new Set<string>();

  constructor(private readonly source: ConfigSource) {}

  /** Settings the client pushed (`didChangeConfiguration` or initializationOptions), for clients that cannot be asked. */
  setPushedSettings(settings: unknown): void {
    this.pushed = settings;
  }

  invalidate(): void {
    this.generation++;
    this.documents.clear();
    this.settings.clear();
    this.reported.clear();
  }

  /** Forgets one document's cached configuration (on close). */
  forget(uri: string): void {
    this.documents.delete(uri);
    this.settings.delete(uri);
  }

  /**
   * The configuration of the open document `uri` (cached until `invalidate()`/`forget()`): settings
   * asked for that resource, `.rolloutlintrc.json` found from `absPath` up to `root`.
   */
  forDocument(uri: string, absPath: string | undefined, root: string | undefined): Promise<DocumentConfig> {
    let entry = this.documents.get(uri);
    if (!entry) {
      entry = this.compute(uri, absPath, root);
      this.documents.set(uri, entry);
    }
    return entry;
  }

  /** The configuration of a file that is not open: settings of its folder (`scopeUri`), its own `.rolloutlintrc.json`. */
  forFile(scopeUri: string, absPath: string | undefined, root: string | undefined): Promise<DocumentConfig> {
    return this.compute(scopeUri, absPath, root);
  }

  private settingsFor(scopeUri: string): Promise<ReturnType<typeof settingsLayer>> {
    let entry = this.settings.get(scopeUri);
    if (!entry) {
      entry = this.clientSettings(scopeUri).then(settingsLayer);
      this.settings.set(scopeUri, entry);
    }
    return entry;
  }

  /** Logs a configuration problem once per generation. */
  private report(problem: string): void {
    if (this.reported.has(problem)) return;
    this.reported.add(problem);
    this.source.log(problem);
  }

  private async clientSettings(scopeUri: string): Promise<unknown> {
    if (!this.source.pullsConfiguration) return this.pushed;
    try {
      // A client with no such section answers null (Neovim without `settings.rolloutLint`): the
      // settings it sent as initializationOptions.rolloutLint then apply.
      const answer: unknown = await this.source.connection.workspace.getConfiguration({ scopeUri, section: 'rolloutLint' });
      return answer === null || answer === undefined ? this.pushed : answer;
    } catch (error) {
      this.source.log(say(this.source.locale ?? 'en', 'log.configurationFailed', { scope: scopeUri, error: (error as Error).message }));
      return this.pushed;
    }
  }

  private async compute(scopeUri: string, absPath: string | undefined, root: string | undefined): Promise<DocumentConfig> {
    const settings = await this.settingsFor(scopeUri);
    for (const problem of settings.problems) this.report(problem);
    const layers: Partial<LintConfig>[] = [settings.layer];
    let rcFile: string | undefined;
    if (absPath && root) {
      let rc: RcLayer;
      try {
        rc = this.source.loadRc(absPath, root);
      } catch (error) {
        rc = { error: (error as Error).message };
      }
      if (rc.error) this.report(rc.layer ? `${CONFIG_FILE_NAME}: globs left out (the rest applies): ${rc.error}` : `${CONFIG_FILE_NAME} ignored: ${rc.error}`);
      if (rc.layer) {
        const layer = { ...rc.layer };
        if (!this.source.trusted) delete layer.extraProviders;
        layers.push(layer);
      }
      rcFile = rc.file;
    }
    return { enabled: settings.enabled, config: mergeConfig(...layers), rcFile };
  }
}
