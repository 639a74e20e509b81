import picomatch from 'picomatch';

/**
 * Limits on configured globs (`ignore`, `rolloutGlobs`, `jsonGlobs`). picomatch compiles a glob to a
 * backtracking regular expression: `**\/*a*a*a*…b` takes seconds to minutes on one long file name
 * (issue 13 item 7), and hundreds of thousands of globs exhaust memory. Measured with picomatch 4 on
 * a 250-character name: 2 wildcards in a segment 40 ms, 3 wildcards 3 s.
 */
export const GLOB_LIMITS = { maxGlobs: 1000, maxLength: 512, maxWildcardsPerSegment: 2, maxGlobstars: 4, maxPathLength: 1024 } as const;

/**
 * Why `glob` is refused, or `undefined` when it is within `GLOB_LIMITS`. Wildcards are `*` runs
 * inside a segment and extglobs (`*(…)`, `+(…)`, `@(…)`, `!(…)`, `?(…)`); a whole `**` segment is a
 * globstar. Braces are expanded first (`{a,b}*` counts per alternative).
 */
export function globProblem(glob: string): string | undefined {
  if (glob.length > GLOB_LIMITS.maxLength) return `glob longer than ${GLOB_LIMITS.maxLength} characters`;
  if ((glob.match(/\{/g) ?? []).length > 4) return 'glob with more than 4 brace groups';
  let globstars = 0;
  for (const segment of glob.split('/')) {
    if (/^\*\*$/.test(segment)) {
      globstars++;
      continue;
    }
    const wildcards = (segment.replace(/[*+@!?]\(/g, '\0(').replace(/\*+/g, '*').match(/[*\0]/g) ?? []).length;
    if (wildcards > GLOB_LIMITS.maxWildcardsPerSegment) return `glob segment "${segment.slice(0, 40)}" has ${wildcards} wildcards; at most ${GLOB_LIMITS.maxWildcardsPerSegment} are allowed (more makes matching take exponential time)`;
  }
  if (globstars > GLOB_LIMITS.maxGlobstars) return `glob with more than ${GLOB_LIMITS.maxGlobstars} "**" segments`;
  return undefined;
}

/**
 * A matcher for `globs` (picomatch, `dot: true`) that is safe on any input: globs `globProblem`
 * refuses are left out (configuration loading reports them), at most `maxGlobs` are used, and paths
 * longer than `maxPathLength` characters match nothing.
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const usable = globs.filter((g) => globProblem(g) === undefined).slice(0, GLOB_LIMITS.maxGlobs);
  if (usable.length === 0) return () => false;
  const match = picomatch(usable, { dot: true });
  return (path) => path.length <= GLOB_LIMITS.maxPathLength && match(path);
}
