import { parse as parseJsonc } from 'jsonc-parser';
import semver from 'semver';

/**
 * toml-eslint-parser and @renovatebot/pep440 ship only ES modules; Node ≥ 20.19 (our `engines`) loads them
 * with `require`, and the esbuild bundle inlines them.
 */
const { parseTOML, getStaticTOMLValue } = require('toml-eslint-parser') as typeof import('toml-eslint-parser', { with: { 'resolution-mode': 'import' } });
const pep440 = require('@renovatebot/pep440') as typeof import('@renovatebot/pep440', { with: { 'resolution-mode': 'import' } });
const pep440Specifier = require('@renovatebot/pep440/lib/specifier.js') as { parse(spec: string): { release: number[] }[] | null };

/** The client packages whose version changes what Rollout Lint predicts, by registry (names normalised: PEP 503 for PyPI). */
export const PINNED_PACKAGES = { pypi: ['openai', 'anthropic', 'langchain-openai'], npm: ['openai', '@anthropic-ai/sdk', '@langchain/openai'] } as const;

/** A client package a project declares or locks, and the major versions that declaration allows. */
export interface ClientPin {
  ecosystem: 'pypi' | 'npm';
  /** Package name, normalised (`langchain-openai`, `@anthropic-ai/sdk`). */
  name: string;
  /** The constraint as written (`>=2,<3`, `^2.0`), or the locked version (`2.54.0`). */
  spec: string;
  /** True for a lock file's exact version (it wins over constraints in the same folder). */
  locked: boolean;
  /** File name of the manifest (`requirements.txt`, `uv.lock`); the caller may prefix a folder. */
  file: string;
  /**
   * Major versions the constraint allows, up to one above the highest it names; `orLater`: every later major
   * too (no upper bound). `undefined` when the constraint says nothing (`*`, a URL, a tag, unparsable).
   */
  majors?: { list: number[]; orLater: boolean };
}

/** Whether `name` (a file name, no folder) is a manifest `pinsInManifest` reads. */
export function isManifestName(name: string): boolean {
  return /^requirements[\w.-]*\.txt$/i.test(name) || ['pyproject.toml', 'uv.lock', 'poetry.lock', 'Pipfile', 'Pipfile.lock', 'package.json', 'package-lock.json'].includes(name);
}

/** PEP 503 normalisation: lower case, runs of `-`, `_`, `.` become `-`. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

const WANTED: Record<ClientPin['ecosystem'], ReadonlySet<string>> = { pypi: new Set(PINNED_PACKAGES.pypi), npm: new Set(PINNED_PACKAGES.npm) };

/**
 * The client pins a manifest declares. `file` is the file's name (decides its format: `requirements*.txt`,
 * PEP 621 / Poetry / PEP 735 `pyproject.toml`, `Pipfile`, `uv.lock`, `poetry.lock`, `Pipfile.lock`,
 * `package.json`, `package-lock.json`). Never throws: an unparsable file gives no pins.
 */
export function pinsInManifest(file: string, text: string): ClientPin[] {
  const out: ClientPin[] = [];
  const add = (ecosystem: ClientPin['ecosystem'], rawName: string, spec: string, locked: boolean, dialect: 'pep440' | 'poetry' | 'npm') => {
    const name = ecosystem === 'pypi' ? normalise(rawName) : rawName;
    if (!WANTED[ecosystem].has(name) || out.some((p) => p.name === name && p.ecosystem === ecosystem)) return;
    const s = spec.trim();
    const majors = locked ? lockedMajor(s) : dialect === 'npm' ? npmMajors(s) : dialect === 'poetry' ? poetryMajors(s) : pep440Majors(s);
    out.push({ ecosystem, name, spec: s, locked, file, ...(majors ? { majors } : {}) });
  };
  try {
    if (/^requirements[\w.-]*\.txt$/i.test(file)) {
      for (const req of requirementLines(text)) addRequirement(req, (n, s) => add('pypi', n, s, false, 'pep440'));
    } else if (file === 'pyproject.toml') {
      const doc = tomlValue(text);
      const project = record(doc.project);
      const strings = [...list(project.dependencies), ...Object.values(record(project['optional-dependencies'])).flatMap(list), ...Object.values(record(doc['dependency-groups'])).flatMap(list)];
      for (const s of strings) if (typeof s === 'string') addRequirement(s, (n, spec) => add('pypi', n, spec, false, 'pep440'));
      const poetry = record(record(doc.tool).poetry);
      const tables = [poetry.dependencies, poetry['dev-dependencies'], ...Object.values(record(poetry.group)).map((g) => record(g).dependencies)];
      for (const table of tables) for (const [n, v] of Object.entries(record(table))) add('pypi', n, poetryVersion(v), false, 'poetry');
    } else if (file === 'Pipfile') {
      const doc = tomlValue(text);
      for (const table of [doc.packages, doc['dev-packages']]) for (const [n, v] of Object.entries(record(table))) add('pypi', n, poetryVersion(v), false, 'pep440');
    } else if (file === 'uv.lock' || file === 'poetry.lock') {
      for (const p of list(tomlValue(text).package)) {
        const { name, version } = record(p);
        if (typeof name === 'string' && typeof version === 'string') add('pypi', name, version, true, 'pep440');
      }
    } else if (file === 'Pipfile.lock') {
      const doc = record(parseJsonc(text));
      for (const table of [doc.default, doc.develop]) for (const [n, v] of Object.entries(record(table))) {
        const version = record(v).version;
        if (typeof version === 'string') add('pypi', n, version.replace(/^==/, ''), true, 'pep440');
      }
    } else if (file === 'package.json') {
      const doc = record(parseJsonc(text));
      for (const key of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) for (const [n, v] of Object.entries(record(doc[key]))) if (typeof v === 'string') add('npm', n, v, false, 'npm');
    } else if (file === 'package-lock.json') {
      const doc = record(parseJsonc(text));
      // lockfileVersion 2/3: `packages["node_modules/<name>"]`; 1: `dependencies[<name>]`.
      for (const [key, v] of Object.entries(record(doc.packages))) {
        const version = record(v).version;
        if (key.startsWith('node_modules/') && !key.slice('node_modules/'.length).includes('node_modules/') && typeof version === 'string') add('npm', key.slice('node_modules/'.length), version, true, 'npm');
      }
      for (const [n, v] of Object.entries(record(doc.dependencies))) {
        const version = record(v).version;
        if (typeof version === 'string') add('npm', n, version, true, 'npm');
      }
    }
  } catch {
    return out;
  }
  return out;
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function tomlValue(text: string): Record<string, unknown> {
  return record(getStaticTOMLValue(parseTOML(text)));
}

/** Poetry / Pipfile table value: `"^2.0"`, `{ version = "^2.0", extras = [...] }`, `"*"`. */
function poetryVersion(v: unknown): string {
  if (typeof v === 'string') return v;
  const version = record(v).version;
  return typeof version === 'string' ? version : '';
}

/**
 * The requirement strings of a pip requirements file: comments (` #…`) and options (`-r`, `-e`, `--hash`)
 * dropped, `\` continuations joined (pip's requirements-file format, pip docs "Requirements File Format").
 */
function requirementLines(text: string): string[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  const out: string[] = [];
  for (const raw of joined.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line && !line.startsWith('-')) out.push(line.replace(/\s--\S.*$/, ''));
  }
  return out;
}

/**
 * A PEP 508 requirement: `name[extras] specifier ; marker`. A direct reference (`name @ url`) has no
 * version constraint.
 */
function addRequirement(requirement: string, add: (name: string, spec: string) => void): void {
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(.*)$/.exec(requirement.trim());
  if (!m) return;
  const rest = m[2].split(';')[0].trim();
  add(m[1], rest.startsWith('@') ? '' : rest.replace(/^\((.*)\)$/, '$1'));
}

const MAX_MAJOR = 99;

function lockedMajor(version: string): ClientPin['majors'] {
  const major = /^v?(\d+)/.exec(version)?.[1];
  return major === undefined ? undefined : { list: [Number(major)], orLater: false };
}

/** Majors of an npm range (node-semver: `^2.0.0`, `~2.5`, `>=2 <3`, `2.x`); `undefined` for tags, URLs, `*`. */
function npmMajors(range: string): ClientPin['majors'] {
  if (!range || semver.validRange(range) === null) return undefined;
  const list: number[] = [];
  for (let m = 0; m <= MAX_MAJOR; m++) if (semver.intersects(range, `>=${m}.0.0 <${m + 1}.0.0-0`)) list.push(m);
  const orLater = semver.intersects(range, `>=${MAX_MAJOR + 1}.0.0`);
  return orLater && list.length === MAX_MAJOR + 1 ? undefined : { list, orLater };
}

/** Poetry constraints: `^`/`~` and space/comma-separated comparisons as node-semver reads them; `~=`, `==`, `!=` as PEP 440. */
function poetryMajors(spec: string): ClientPin['majors'] {
  if (/~=|==|!=/.test(spec)) return pep440Majors(spec);
  const s = spec.replace(/,/g, ' ').trim();
  return /^\d[\w.]*$/.test(s) ? lockedMajor(s) : npmMajors(s);
}

/**
 * Majors a PEP 440 specifier set allows (`@renovatebot/pep440`): a major counts when one of a few probe
 * versions in it satisfies the set — its `.0`, a very high minor, and each release the set names with its
 * neighbours (so `>=2.54,<2.60` finds 2); `orLater` when the major above the highest named is allowed.
 */
function pep440Majors(spec: string): ClientPin['majors'] {
  if (!spec || !pep440.validRange(spec)) return undefined;
  const releases = (pep440Specifier.parse(spec) ?? []).map((c) => c.release);
  const top = Math.max(0, ...releases.map((r) => r[0] ?? 0)) + 1;
  const probes = new Set<string>();
  for (let m = 0; m <= top; m++) {
    probes.add(`${m}.0`);
    probes.add(`${m}.999999`);
  }
  for (const r of releases) {
    probes.add(r.join('.'));
    probes.add([...r.slice(0, -1), r[r.length - 1] + 1].join('.'));
    probes.add([...r, 1].join('.'));
    if (r.length > 1) probes.add([r[0], r[1] + 1].join('.'));
  }
  const majors = new Set<number>();
  for (const p of probes) if (pep440.satisfies(p, spec)) majors.add(Number(p.split('.')[0]));
  const list = [...majors].filter((m) => m < top).sort((a, b) => a - b);
  return { list, orLater: majors.has(top) };
}

/** Whether a pin allows major `m` (no constraint allows every major). */
export function allowsMajor(pin: ClientPin | undefined, m: number): boolean {
  if (!pin?.majors) return true;
  const { list, orLater } = pin.majors;
  return list.includes(m) || (orLater && m > Math.max(-1, ...list));
}

/**
 * The pins that apply in one folder: per package, a lock file's version over any constraint, and among
 * constraints the first file in `files` order. `files`: `[name, text]` of the manifests in the folder.
 */
export function folderPins(files: readonly (readonly [string, string])[]): ClientPin[] {
  const all = files.flatMap(([name, text]) => pinsInManifest(name, text));
  const out: ClientPin[] = [];
  for (const pin of [...all.filter((p) => p.locked), ...all.filter((p) => !p.locked)]) {
    if (!out.some((p) => p.name === pin.name && p.ecosystem === pin.ecosystem)) out.push(pin);
  }
  return out;
}
