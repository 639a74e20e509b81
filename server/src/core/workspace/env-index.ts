import type { EnvDefinition, EnvFileLink, EnvReadRef, FileEnv } from './env-facts';
import type { ServerLaunch } from './servers';
import { groupBy } from '../group-by';
import { sameData } from '../same-data';

/** One definition in the value chain of a read, in load order (the first that applies wins). */
export interface ChainEntry {
  definition: EnvDefinition;
  /** False for definitions no loader applies to this reader (a `.env` in another folder, a template). */
  applies: boolean;
  /** Why it sits where it does: `process`, `.env.local`, `.env`, `override` … (for hover). */
  reason: 'process' | 'service-env-file' | 'dotenv-local' | 'dotenv-mode' | 'dotenv' | 'env-file' | 'override' | 'elsewhere' | 'template';
}

/** What one document sees of the workspace env index (handed to lint through `LintOptions.env`). */
export interface EnvView {
  /** Every definition of `name`, in load order for a reader in this document. */
  chain(name: string): ChainEntry[];
  /** Reads of `name` in other files of the workspace. */
  readsElsewhere(name: string): EnvReadRef[];
  /** Every read of `name` in the workspace, this document's included. */
  reads(name: string): EnvReadRef[];
  /** The chain of `name` as a reader in another file sees it (does this document's definition reach it?). */
  chainAt(name: string, readerPath: string): ChainEntry[];
  /** The reads (here and elsewhere) that this document's definition of `name` whose key starts at `keyStart` reaches. */
  readersOf(name: string, keyStart: number): EnvReadRef[];
  /** Number of files indexed (0 = no workspace around the document). */
  readonly size: number;
  /** The vLLM/SGLang servers that launch scripts and Compose files of the workspace start (this document's included). */
  servers?(): ServerLaunch[];
}

/** The view of a document with no workspace around it. */
export const NO_ENV: EnvView = { chain: () => [], readsElsewhere: () => [], reads: () => [], chainAt: () => [], readersOf: () => [], size: 0 };

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function isAncestor(dir: string, of: string): boolean {
  return dir === '' || of === dir || of.startsWith(`${dir}/`);
}

/**
 * Dotenv load order as the common loaders apply it: dotenv-flow/Vite/Next.js put `.env.<mode>.local`
 * and `.env.local` over `.env.<mode>` over `.env`; python-dotenv's `find_dotenv()` takes the nearest
 * `.env` walking up from the caller; `*.env` files are loaded only when named (`env_file:`, `--env-file`).
 * All of them yield to variables already in the process environment unless `override=True`
 * (python-dotenv `load_dotenv`, npm dotenv `config({override})`).
 */
function dotenvReason(path: string): ChainEntry['reason'] {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (!base.startsWith('.env')) return 'env-file';
  if (base === '.env') return 'dotenv';
  if (base.endsWith('.local')) return 'dotenv-local';
  return 'dotenv-mode';
}

/**
 * Load order ranks. A Compose service's `environment:` wins over its `env_file:` (compose-spec
 * "environment": "Environment variables declared in the environment section override these values"),
 * and both are the container's process environment, which dotenv loaders do not override.
 */
const RANK: Record<ChainEntry['reason'], number> = { override: 0, process: 1, 'service-env-file': 2, 'dotenv-local': 3, 'dotenv-mode': 4, dotenv: 5, 'env-file': 6, elsewhere: 7, template: 8 };

/**
 * The workspace env index: every env definition and read of the indexed files, by name. Pure and
 * incremental: `set` replaces one file's facts, `delete` drops them; `generation` counts changes
 * that altered what the index holds (for cache keys). Paths are workspace-relative, `/`-separated.
 */
export class EnvIndex {
  private readonly files = new Map<string, FileEnv>();
  private byName: Map<string, { definitions: EnvDefinition[]; reads: EnvReadRef[] }> | undefined;
  private links: Map<string, { compose: string; link: EnvFileLink }[]> | undefined;
  /** `chainFor` results by name and reader path, until the next change (a reader's chain was sorted again for every definition it was asked about). */
  private chains = new Map<string, ChainEntry[]>();
  /** Per name: its reads grouped by file, each with the definitions (`path\0keyStart`) that apply to that file, until the next change. */
  private reached = new Map<string, { reads: EnvReadRef[]; applying: Set<string> | undefined }[]>();
  /** Every server launch by path order, until the next change (each lint asked for it: a sort of all files per file). */
  private launches: ServerLaunch[] | undefined;
  /** Increases whenever `set` or `delete` changes the index. */
  generation = 0;

  get size(): number {
    return this.files.size;
  }

  /** Replaces the facts of `file.path`. Returns true when anything changed. */
  set(file: FileEnv): boolean {
    const before = this.files.get(file.path);
    // The same object set again may have been changed in place: only a distinct copy can prove "unchanged".
    if (before !== undefined && before !== file && sameData(before, file)) return false;
    this.files.set(file.path, file);
    this.changed();
    return true;
  }

  /** Drops a file (deleted, no longer linted). Returns true when it was indexed. */
  delete(path: string): boolean {
    if (!this.files.delete(path)) return false;
    this.changed();
    return true;
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  fileEnv(path: string): FileEnv | undefined {
    return this.files.get(path);
  }

  private changed(): void {
    this.generation++;
    this.byName = undefined;
    this.links = undefined;
    this.launches = undefined;
    this.chains = new Map();
    this.reached = new Map();
  }

  /** Compose `env_file:` links by the dotenv file they name. */
  private envFileLinks(): Map<string, { compose: string; link: EnvFileLink }[]> {
    if (this.links) return this.links;
    const map = new Map<string, { compose: string; link: EnvFileLink }[]>();
    for (const file of this.files.values()) {
      for (const link of file.envFiles ?? []) {
        if (link.target === undefined) continue;
        const list = map.get(link.target);
        if (list) list.push({ compose: file.path, link });
        else map.set(link.target, [{ compose: file.path, link }]);
      }
    }
    this.links = map;
    return map;
  }

  /**
   * The Compose services whose `env_file:` names the dotenv file `path` and whose code a reader in
   * `readerDir` may be (the compose file's folder, its parent and below: the scope of `environment:`).
   */
  loadedBy(path: string, readerDir: string): { compose: string; link: EnvFileLink }[] {
    return (this.envFileLinks().get(path) ?? []).filter((l) => isAncestor(dirOf(dirOf(l.compose)), readerDir));
  }

  private names(): Map<string, { definitions: EnvDefinition[]; reads: EnvReadRef[] }> {
    if (this.byName) return this.byName;
    const map = new Map<string, { definitions: EnvDefinition[]; reads: EnvReadRef[] }>();
    const entry = (name: string) => {
      let e = map.get(name);
      if (!e) map.set(name, (e = { definitions: [], reads: [] }));
      return e;
    };
    const sorted = [...this.files.values()].sort((a, b) => a.path.localeCompare(b.path));
    for (const file of sorted) {
      for (const d of file.definitions) entry(d.name).definitions.push(d);
      for (const r of file.reads) entry(r.name).reads.push(r);
    }
    this.byName = map;
    return map;
  }

  /** Every definition of `name`, by path then offset. */
  definitionsOf(name: string): EnvDefinition[] {
    return this.names().get(name)?.definitions ?? [];
  }

  /** Every read of `name`, by path then offset. */
  readsOf(name: string): EnvReadRef[] {
    return this.names().get(name)?.reads ?? [];
  }

  /** All variable names that have a definition or a read. */
  allNames(): string[] {
    return [...this.names().keys()];
  }

  /**
   * The definitions of `name` in load order for a reader in `readerPath` (see `dotenvReason`):
   * process environment (shell `export`, Compose, Kubernetes, settings.json `env`; for readers in the
   * folder above the defining file's folder and below) first, then dotenv files a Compose service names
   * in `env_file:` (same scope as the compose file's `environment:`), then the
   * dotenv files of the reader's folder and its ancestors, nearest first; with `load_dotenv(override=True)`
   * in the reader, dotenv files come first. Definitions no loader applies come last, `applies: false`.
   */
  chainFor(name: string, readerPath: string): ChainEntry[] {
    const key = `${name}\0${readerPath}`;
    let chain = this.chains.get(key);
    if (!chain) this.chains.set(key, (chain = this.computeChain(name, readerPath)));
    return chain;
  }

  /**
   * The reads of `name` that the definition in `path` whose key starts at `keyStart` reaches (it applies
   * in their chain), by path then offset. Reads are grouped by file (one chain per reader file), once
   * per name until the next change.
   */
  readersOf(name: string, path: string, keyStart: number): EnvReadRef[] {
    let groups = this.reached.get(name);
    if (!groups) {
      groups = [];
      for (const read of this.readsOf(name)) {
        const last = groups[groups.length - 1];
        if (last && last.reads[0].at.path === read.at.path) last.reads.push(read);
        else groups.push({ reads: [read], applying: undefined });
      }
      this.reached.set(name, groups);
    }
    const key = `${path}\0${keyStart}`;
    const out: EnvReadRef[] = [];
    for (const group of groups) {
      group.applying ??= new Set(this.chainFor(name, group.reads[0].at.path).filter((e) => e.applies).map((e) => `${e.definition.at.path}\0${e.definition.at.range.start}`));
      if (group.applying.has(key)) out.push(...group.reads);
    }
    return out;
  }

  private computeChain(name: string, readerPath: string): ChainEntry[] {
    const readerDir = dirOf(readerPath);
    const overrides = this.files.get(readerPath)?.dotenvOverrides === true;
    const entries = this.definitionsOf(name).map((definition): ChainEntry & { depth: number } => {
      const dir = dirOf(definition.at.path);
      const depth = -dir.split('/').filter(Boolean).length;
      // a file a Compose service names is loaded into its environment, template name or not
      const services = definition.source === 'process' ? [] : this.loadedBy(definition.at.path, readerDir);
      // later entries of one env_file: list override earlier ones: they sort first
      if (services.length > 0) return { definition, applies: true, reason: 'service-env-file', depth: -Math.max(...services.map((l) => l.link.order)) };
      if (definition.source === 'template') return { definition, applies: false, reason: 'template', depth };
      if (definition.source === 'process') {
        // A launch script, compose file or `.claude/settings.json` starts code of its project: the folder above its own.
        const applies = isAncestor(dirOf(dir), readerDir) || definition.at.path === readerPath;
        return { definition, applies, reason: applies ? 'process' : 'elsewhere', depth };
      }
      if (!isAncestor(dir, readerDir) && definition.at.path !== readerPath) return { definition, applies: false, reason: 'elsewhere', depth };
      const reason = dotenvReason(definition.at.path);
      return { definition, applies: true, reason: overrides && reason !== 'env-file' ? 'override' : reason, depth };
    });
    entries.sort((a, b) => RANK[a.reason] - RANK[b.reason] || a.depth - b.depth || a.definition.at.path.localeCompare(b.definition.at.path) || a.definition.at.range.start - b.definition.at.range.start);
    return entries.map(({ definition, applies, reason }) => ({ definition, applies, reason }));
  }

  /**
   * A short string that changes whenever what the index tells a lint of `path` could change: the
   * definitions and reads of every variable the file defines or reads (for result ids and caches, so a
   * change elsewhere leaves unrelated files "unchanged").
   */
  dependencySignature(path: string): string {
    const file = this.files.get(path);
    if (!file) return '0';
    const names = new Set([...file.definitions.map((d) => d.name), ...file.reads.map((r) => r.name), ...(file.loadedNames ?? [])]);
    let hash = 0x811c9dc5;
    const mix = (text: string) => {
      for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    };
    for (const name of [...names].sort()) {
      for (const d of this.definitionsOf(name)) if (d.at.path !== path) mix(`d${name}\0${d.at.path}\0${d.at.range.start}\0${d.value ?? ''}\0${d.source}\0`);
      for (const r of this.readsOf(name)) if (r.at.path !== path) mix(`r${name}\0${r.at.path}\0${r.at.range.start}\0${r.consumers.map((c) => c.id + (c.appendedPath ?? '')).join(',')}\0${r.bindAddress ? 1 : 0}\0`);
    }
    if (file.dotenvOverrides) mix('override');
    for (const s of this.servers()) if (s.at.path !== path) mix(`s${s.at.path}\0${s.at.range.start}\0${s.port}\0${s.names.join('\0')}\0${s.complete}\0${s.apiKey}\0${s.apiKeyValue ?? ''}\0${s.service ?? ''}\0`);
    for (const [target, links] of this.envFileLinks()) for (const l of links) mix(`f${target}\0${l.compose}\0`);
    return hash.toString(36);
  }

  /** The view lint gets for the document at `path`. */
  viewFor(path: string): EnvView {
    const elsewhere = new Map<string, EnvReadRef[]>();
    return {
      chain: (name) => [...this.chainFor(name, path)],
      readsElsewhere: (name) => {
        let reads = elsewhere.get(name);
        if (!reads) elsewhere.set(name, (reads = this.readsOf(name).filter((r) => r.at.path !== path)));
        return [...reads];
      },
      reads: (name) => [...this.readsOf(name)],
      chainAt: (name, readerPath) => [...this.chainFor(name, readerPath)],
      readersOf: (name, keyStart) => [...this.readersOf(name, path, keyStart)],
      size: this.files.size,
      servers: () => [...this.servers()],
    };
  }

  /** Every server launch of the indexed files, by path. */
  servers(): ServerLaunch[] {
    this.launches ??= [...this.files.values()].filter((f) => f.servers?.length).sort((a, b) => a.path.localeCompare(b.path)).flatMap((f) => f.servers!);
    return this.launches;
  }
}

/**
 * `view` with the reads of the document being linted taken from `file` (its current text) instead of
 * the index, so rules see this document's own reads even with no workspace around it.
 */
export function withDocument(view: EnvView, file: FileEnv): EnvView {
  let reads: Map<string, EnvReadRef[]> | undefined;
  let defined: Set<string> | undefined;
  const local = (name: string) => [...((reads ??= groupBy(file.reads, (r) => r.name)).get(name) ?? [])];
  const definesAt = (name: string, keyStart: number) => (defined ??= new Set(file.definitions.map((d) => `${d.name}\0${d.at.range.start}`))).has(`${name}\0${keyStart}`);
  return {
    chain: (name) => view.chain(name),
    readsElsewhere: (name) => view.readsElsewhere(name),
    reads: (name) => [...view.readsElsewhere(name), ...local(name)],
    chainAt: (name, readerPath) => view.chainAt(name, readerPath),
    readersOf: (name, keyStart) => [...view.readersOf(name, keyStart).filter((r) => r.at.path !== file.path), ...(definesAt(name, keyStart) ? local(name) : [])],
    size: view.size,
    servers: () => [...(view.servers?.() ?? []).filter((s) => s.at.path !== file.path), ...(file.servers ?? [])],
  };
}
