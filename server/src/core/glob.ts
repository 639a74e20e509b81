/**
 * The one glob compiler for every glob option from every source (`.rolloutlintrc.json` `ignore`,
 * `rolloutGlobs`, `jsonGlobs`, `testGlobs`; the same options in editor settings; the defaults).
 *
 * Matching cannot backtrack: a glob is split into `/` segments and a path is run through them as a set
 * of states (a Thompson-style simulation), and each segment is matched the same way character by
 * character, so one match costs at most (path length × glob length) steps whatever the glob. The
 * syntax is picomatch's (`dot: true`) for what it keeps: `*`, `?`, `**` segments (zero or more
 * segments; a `**` inside a segment is `*`), `[...]` classes with ranges and `!`/`^` negation, `{a,b}`
 * alternatives (nested), `\` escapes, a leading `./`; a test checks the two agree on generated globs
 * and paths. Extglobs (`+(…)`), negated globs (`!x`), POSIX classes and `{1..3}` ranges are refused.
 */

/** Limits on configured globs: how many, how long, how many brace alternatives, and the longest path matched. */
export const GLOB_LIMITS = { maxGlobs: 1000, maxLength: 512, maxAlternatives: 256, maxPathLength: 1024 } as const;

/** Options of `compileGlob`: `nocase` compares ASCII letters case-insensitively. */
export interface GlobOptions {
  nocase?: boolean;
}

type Token = { kind: 'char'; c: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negated: boolean; ranges: [string, string][] };
type Segment = 'globstar' | Token[];

/** A compiled glob, or the reason it is refused (a clear sentence for a configuration error). */
export type CompiledGlob = { ok: true; test: (path: string) => boolean } | { ok: false; problem: string };

/** Expands `{a,b}` groups (nested); a `{` without a matching `}` or `,` is literal, as in picomatch. */
function expandBraces(glob: string, out: string[]): string | undefined {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth++ === 0) open = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      const body = glob.slice(open + 1, i);
      const parts: string[] = [];
      let d = 0;
      let from = 0;
      for (let j = 0; j < body.length; j++) {
        if (body[j] === '\\') j++;
        else if (body[j] === '{') d++;
        else if (body[j] === '}') d--;
        else if (body[j] === ',' && d === 0) {
          parts.push(body.slice(from, j));
          from = j + 1;
        }
      }
      parts.push(body.slice(from));
      if (parts.length === 1) {
        if (/^[^.]*\.\.[^.]*$/.test(body)) return 'brace ranges such as {1..3} are not supported; list the alternatives';
        continue; // `{x}` is literal
      }
      for (const part of parts) {
        const problem = expandBraces(glob.slice(0, open) + part + glob.slice(i + 1), out);
        if (problem) return problem;
        if (out.length > GLOB_LIMITS.maxAlternatives) return `braces expand to more than ${GLOB_LIMITS.maxAlternatives} alternatives`;
      }
      return undefined;
    }
  }
  out.push(glob);
  return undefined;
}

function parseSegment(segment: string): Token[] | string {
  if (/^\*\*+$/.test(segment)) return [{ kind: 'star' }];
  const tokens: Token[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if ('*+@!?'.includes(c) && segment[i + 1] === '(') return `extglob "${c}(" is not supported`;
    if (c === '\\' && i + 1 < segment.length) tokens.push({ kind: 'char', c: segment[++i] });
    else if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) {
        tokens.push({ kind: 'char', c });
        continue;
      }
      let body = segment.slice(i + 1, close);
      if (body.includes('[:')) return 'POSIX character classes ([[:alpha:]]) are not supported';
      const negated = body[0] === '!' || body[0] === '^';
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let j = 0; j < body.length; j++) {
        let lo = body[j];
        if (lo === '\\' && j + 1 < body.length) lo = body[++j];
        if (body[j + 1] === '-' && j + 2 < body.length) {
          ranges.push([lo, body[j + 2]]);
          j += 2;
        } else ranges.push([lo, lo]);
      }
      tokens.push({ kind: 'class', negated, ranges });
      i = close;
    } else tokens.push({ kind: 'char', c });
  }
  return tokens;
}

function fold(c: string, nocase: boolean): string {
  return nocase ? c.toLowerCase() : c;
}

function tokenMatches(token: Token, c: string, nocase: boolean): boolean {
  switch (token.kind) {
    case 'char':
      return fold(token.c, nocase) === fold(c, nocase);
    case 'any':
      return true;
    case 'class': {
      const x = fold(c, nocase);
      const hit = token.ranges.some(([lo, hi]) => (fold(lo, nocase) <= x && x <= fold(hi, nocase)) || (lo <= c && c <= hi));
      return hit !== token.negated;
    }
    default:
      return false;
  }
}

/** Whether one path segment matches `tokens`: a state-set simulation, O(segment × tokens), no backtracking. */
function segmentMatches(tokens: Token[], text: string, nocase: boolean): boolean {
  const n = tokens.length;
  let states = new Uint8Array(n + 1);
  const close = (s: Uint8Array) => {
    for (let i = 0; i < n; i++) if (s[i] && tokens[i].kind === 'star') s[i + 1] = 1;
  };
  states[0] = 1;
  close(states);
  for (const c of text) {
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!states[i]) continue;
      const t = tokens[i];
      if (t.kind === 'star') next[i] = 1;
      else if (tokenMatches(t, c, nocase)) next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    close(next);
    states = next;
  }
  return states[n] === 1;
}

/** Whether the segments of `path` match `pattern`: a state-set simulation over segments. */
function pathMatches(pattern: Segment[], parts: string[], nocase: boolean): boolean {
  const n = pattern.length;
  let states = new Uint8Array(n + 1);
  const close = (s: Uint8Array) => {
    for (let i = 0; i < n; i++) if (s[i] && pattern[i] === 'globstar') s[i + 1] = 1;
  };
  states[0] = 1;
  close(states);
  for (const part of parts) {
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!states[i]) continue;
      const p = pattern[i];
      if (p === 'globstar') next[i] = 1;
      else if (segmentMatches(p, part, nocase)) next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    close(next);
    states = next;
  }
  return states[n] === 1;
}

/**
 * Compiles one glob, or says why it is refused (too long, unsupported syntax, too many brace
 * alternatives). Paths are `/`-separated; a path longer than `GLOB_LIMITS.maxPathLength` characters
 * matches nothing; the empty path matches nothing.
 */
export function compileGlob(glob: string, options: GlobOptions = {}): CompiledGlob {
  if (glob.length > GLOB_LIMITS.maxLength) return { ok: false, problem: `glob longer than ${GLOB_LIMITS.maxLength} characters` };
  if (glob.startsWith('!')) return { ok: false, problem: 'negated globs ("!…") are not supported; list what to include' };
  const alternatives: string[] = [];
  const braceProblem = expandBraces(glob, alternatives);
  if (braceProblem) return { ok: false, problem: braceProblem };
  const patterns: Segment[][] = [];
  for (let alternative of alternatives) {
    while (alternative.startsWith('./')) alternative = alternative.slice(2);
    const segments: Segment[] = [];
    for (const raw of alternative.split('/')) {
      if (raw === '**') {
        if (segments.at(-1) !== 'globstar') segments.push('globstar');
        continue;
      }
      const tokens = parseSegment(raw);
      if (typeof tokens === 'string') return { ok: false, problem: tokens };
      segments.push(tokens);
    }
    // picomatch quirk kept for the same answers as before: a trailing `/**` after a segment ending in
    // `*` needs at least one more segment (`a*/**` does not match `ab`; `a/**` and `*a/**` match `a`).
    const before = segments.at(-2);
    if (segments.at(-1) === 'globstar' && before !== undefined && before !== 'globstar' && before.at(-1)?.kind === 'star') segments.splice(-1, 0, [{ kind: 'star' }]);
    patterns.push(segments);
  }
  const nocase = options.nocase === true;
  return {
    ok: true,
    test: (path) => {
      if (path.length === 0 || path.length > GLOB_LIMITS.maxPathLength) return false;
      const parts = path.split('/');
      return patterns.some((p) => pathMatches(p, parts, nocase));
    },
  };
}

/** Why `glob` is refused, or `undefined` when `compileGlob` accepts it. */
export function globProblem(glob: string): string | undefined {
  const compiled = compileGlob(glob);
  return compiled.ok ? undefined : compiled.problem;
}

/**
 * A matcher for `globs`: true when any of them matches. Refused globs are left out (configuration
 * loading reports them), at most `GLOB_LIMITS.maxGlobs` are used.
 */
export function globMatcher(globs: readonly string[], options: GlobOptions = {}): (path: string) => boolean {
  const tests: ((path: string) => boolean)[] = [];
  for (const glob of globs.slice(0, GLOB_LIMITS.maxGlobs)) {
    const compiled = compileGlob(glob, options);
    if (compiled.ok) tests.push(compiled.test);
  }
  if (tests.length === 0) return () => false;
  return (path) => tests.some((t) => t(path));
}
