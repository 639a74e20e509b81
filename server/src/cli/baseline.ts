import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Finding } from '../core/model/types';
import { posixRelative } from '../node/project';
import { readBounded } from '../node/read';
import { writeRefusal } from '../node/write-guard';
import { fingerprintsOf } from './fingerprint';

/** One baselined finding: the file (relative to the baseline file's folder, `/`-separated), the rule id and the content fingerprint (`fingerprintsOf`). */
export interface BaselineEntry {
  file: string;
  rule: string;
  fingerprint: string;
}

/** The baseline file's JSON: `{"version": 1, "tool": "rollout-lint", "findings": [BaselineEntry…]}`, entries sorted by file, rule, fingerprint. */
interface BaselineFile {
  version: 1;
  tool: 'rollout-lint';
  findings: BaselineEntry[];
}

/**
 * The largest baseline file read (bytes): an entry is about 150 bytes, so 64 MB holds 400,000 findings.
 * The file may come with the repository (a fork's pull request in the Action): it is read through the
 * guarded reader, so a FIFO, `/dev/zero` or a huge file is refused, not waited on or loaded (issue 29).
 */
export const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/** A baseline file that cannot be read, is not a baseline, or may not be written. The CLI prints the message and exits 2. */
export class BaselineError extends Error {}

/**
 * The findings a project accepted when it adopted Rollout Lint (`--baseline FILE`), ESLint's
 * bulk suppressions and ruff's wished-for baseline in one: findings whose rule, file and content
 * fingerprint are in the file are not reported. A finding moves with its line (the fingerprint
 * hashes the line's text, not its number); editing the line, or a second identical finding on an
 * identical line, shows it again.
 */
export class Baseline {
  private readonly keys: Set<string>;
  /** Keys matched by a finding in this run (`--prune-baseline` keeps these). */
  private readonly used = new Set<string>();
  /** Files (baseline-relative) linted in this run: pruning drops only their unmatched entries. */
  private readonly linted = new Set<string>();
  private readonly base: string;

  private constructor(
    readonly path: string,
    private readonly entries: BaselineEntry[],
  ) {
    this.base = dirname(path);
    this.keys = new Set(entries.map(keyOf));
  }

  /** Reads `path` (absolute). A missing file with `mayBeMissing` gives an empty baseline; otherwise throws `BaselineError`. */
  static load(path: string, mayBeMissing: boolean): Baseline {
    const read = readBounded(path, MAX_BASELINE_BYTES);
    if (read.kind === 'missing') {
      if (mayBeMissing) return new Baseline(path, []);
      throw new BaselineError(`baseline ${path} does not exist; write it with --update-baseline`);
    }
    if (read.kind === 'tooLarge') throw new BaselineError(`baseline ${path} is larger than ${MAX_BASELINE_BYTES} bytes (${read.size}); not read`);
    if (read.kind !== 'bytes') throw new BaselineError(`baseline ${path} cannot be read: ${read.message}`);
    let parsed: Partial<BaselineFile>;
    try {
      parsed = JSON.parse(read.bytes.toString('utf8')) as Partial<BaselineFile>;
    } catch (error) {
      throw new BaselineError(`baseline ${path} is not valid JSON: ${(error as Error).message}`);
    }
    const ok = (e: unknown): e is BaselineEntry => !!e && typeof e === 'object' && ['file', 'rule', 'fingerprint'].every((k) => typeof (e as Record<string, unknown>)[k] === 'string');
    if (parsed?.version !== 1 || !Array.isArray(parsed.findings) || !parsed.findings.every(ok)) {
      throw new BaselineError(`baseline ${path} is not a rollout-lint baseline (version 1 with a "findings" list of {file, rule, fingerprint})`);
    }
    return new Baseline(path, parsed.findings);
  }

  /** The file's path as baseline entries spell it. */
  fileKey(absPath: string): string {
    return posixRelative(this.base, absPath);
  }

  /**
   * Which of a file's findings the baseline holds (same order as `findings`; `text` as the ranges
   * index). With `record`, matches are remembered for `--prune-baseline` (the final lint only, not fix passes).
   */
  matches(absPath: string, findings: readonly Finding[], text: string | undefined, record = false): boolean[] {
    const file = this.fileKey(absPath);
    const prints = fingerprintsOf(findings, text);
    if (record) this.linted.add(file);
    return findings.map((f, i) => {
      const key = keyOf({ file, rule: f.ruleId, fingerprint: prints[i] });
      const hit = this.keys.has(key);
      if (hit && record) this.used.add(key);
      return hit;
    });
  }

  /** How many entries no finding of this run matched, in the files linted. */
  stale(): number {
    return this.entries.filter((e) => this.linted.has(e.file) && !this.used.has(keyOf(e))).length;
  }

  /** Writes the entries matched in this run plus those of files not linted (`--prune-baseline`). Returns how many were dropped. */
  prune(): number {
    const kept = this.entries.filter((e) => !this.linted.has(e.file) || this.used.has(keyOf(e)));
    write(this.path, kept);
    return this.entries.length - kept.length;
  }

  /**
   * Writes a baseline of `files`' findings (`--update-baseline`): entries of files not linted in
   * this run are kept, those of linted files are replaced. Returns the number of entries written.
   */
  update(files: { absPath: string; findings: readonly Finding[]; text: string | undefined }[]): number {
    const linted = new Set(files.map((f) => this.fileKey(f.absPath)));
    const out = this.entries.filter((e) => !linted.has(e.file));
    for (const f of files) {
      const prints = fingerprintsOf(f.findings, f.text);
      const file = this.fileKey(f.absPath);
      f.findings.forEach((x, i) => out.push({ file, rule: x.ruleId, fingerprint: prints[i] }));
    }
    write(this.path, out);
    return out.length;
  }
}

function keyOf(e: BaselineEntry): string {
  return `${e.file}\0${e.rule}\0${e.fingerprint}`;
}

function write(path: string, entries: BaselineEntry[]): void {
  // A baseline committed as a symlink to a file outside the work tree is not written through (as `--fix`).
  const refusal = writeRefusal(resolve(path));
  if (refusal) throw new BaselineError(`baseline ${path}: ${refusal}`);
  const sorted = [...entries].sort((a, b) => cmp(a.file, b.file) || cmp(a.rule, b.rule) || cmp(a.fingerprint, b.fingerprint));
  const body: BaselineFile = { version: 1, tool: 'rollout-lint', findings: sorted };
  writeFileSync(resolve(path), `${JSON.stringify(body, null, 2)}\n`);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
