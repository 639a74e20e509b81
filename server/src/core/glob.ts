/**
 * The one glob compiler for every glob option from every source (`.rolloutlintrc.json` `ignore`,
 * `rolloutGlobs`, `jsonGlobs`, `testGlobs`; the same options in editor settings; the defaults).
 *
 * Matching cannot backtrack exponentially: a glob is split into `/` segments, the path's segments are
 * matched against them with the greedy two-pointer wildcard method (a `**` segment is the wildcard),
 * and each segment's characters the same way, so one match costs at most (path length × glob
 * length) steps whatever the glob; a native `includes` check of the glob's literal runs rejects most
 * paths first. The
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

function tokenMatches(token: Token, c: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.c === c;
    case 'any':
      return true;
    case 'class': {
      let hit = false;
      for (const [lo, hi] of token.ranges) if (lo <= c && c <= hi) hit = true;
      return hit !== token.negated;
    }
    default:
      return false;
  }
}

/**
 * Whether `text` matches `tokens` (each token but `star` matches one UTF-16 unit, as picomatch's
 * regular expressions do; `star` any run of them). The greedy two-pointer method (on a mismatch, let
 * the last star swallow one more unit) is exact for such patterns and takes at most
 * `text.length × tokens.length` steps: it never backtracks past the last star, so no glob makes it
 * exponential. `segmentMatches` below is the same method one level up.
 */
function textMatches(tokens: readonly Token[], text: string): boolean {
  return wildcardMatch(tokens, text.length, (token) => token.kind === 'star', (token, i) => tokenMatches(token, text[i]));
}

/**
 * The greedy two-pointer wildcard match shared by both levels: `pattern` against `length` items, where
 * a star token matches any run of items and every other token one item (`matches`). On a mismatch the
 * last star swallows one more item; at most `length × pattern.length` steps.
 */
function wildcardMatch<T>(pattern: readonly T[], length: number, isStar: (token: T) => boolean, matches: (token: T, i: number) => boolean): boolean {
  let t = 0;
  let i = 0;
  let starT = -1;
  let starI = 0;
  while (i < length) {
    const token = t < pattern.length ? pattern[t] : undefined;
    if (token !== undefined && !isStar(token) && matches(token, i)) {
      t++;
      i++;
    } else if (token !== undefined && isStar(token)) {
      starT = t++;
      starI = i;
    } else if (starT >= 0) {
      t = starT + 1;
      i = ++starI;
    } else return false;
  }
  while (t < pattern.length && isStar(pattern[t])) t++;
  return t === pattern.length;
}

function partMatches(token: PathToken & { kind: 'segment' }, part: string): boolean {
  if (token.literal !== undefined) return token.literal === part;
  return part.includes(token.required) && textMatches(token.tokens, part);
}

/** The longest run of literal characters in `tokens` (every match contains it; a cheap native pre-check). */
function longestLiteral(tokens: readonly Token[]): string {
  let best = '';
  let run = '';
  for (const t of tokens) {
    if (t.kind === 'char') run += t.c;
    else run = '';
    if (run.length > best.length) best = run;
  }
  return best;
}

/** `textMatches` over path segments: a globstar is the star, each other token matches one segment. */
function segmentMatches(pattern: readonly PathToken[], parts: readonly string[]): boolean {
  return wildcardMatch(pattern, parts.length, (token) => token.kind === 'star', (token, i) => token.kind === 'segment' && partMatches(token, parts[i]));
}

/** One segment of a compiled pattern at the path level: a globstar (any run of segments) or a segment's tokens. */
type PathToken = { kind: 'star' } | { kind: 'segment'; tokens: Token[]; literal?: string; required: string };

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
  const fold = (c: string) => (nocase ? c.toLowerCase() : c);
  const compiled: PathToken[][] = patterns.map((segments) =>
    segments.map((segment): PathToken => {
      if (segment === 'globstar') return { kind: 'star' };
      const tokens = segment.map((t): Token => (t.kind === 'char' ? { kind: 'char', c: fold(t.c) } : t.kind === 'class' && nocase ? { ...t, ranges: t.ranges.flatMap(([lo, hi]): [string, string][] => [[lo, hi], [lo.toLowerCase(), hi.toLowerCase()]]) } : t));
      const literal = tokens.every((t) => t.kind === 'char') ? tokens.map((t) => (t as { c: string }).c).join('') : undefined;
      return { kind: 'segment', tokens, literal, required: longestLiteral(tokens) };
    }),
  );
  // Literal runs every matching path contains, checked with native `includes` before any matching.
  const required = compiled.map((p) => p.flatMap((t) => (t.kind === 'segment' && t.required ? [t.required] : [])));
  return {
    ok: true,
    test: (path) => {
      if (path.length === 0 || path.length > GLOB_LIMITS.maxPathLength) return false;
      const folded = nocase ? path.toLowerCase() : path;
      for (let k = 0; k < compiled.length; k++) if (required[k].every((r) => folded.includes(r)) && segmentMatches(compiled[k], folded.split('/'))) return true;
      return false;
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
