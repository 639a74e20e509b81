import type { Locale } from './locale';

/**
 * Where a message is shown: `cli` (the `rollout-lint` CLI, and LSP editors other than VS Code, which
 * have the CLI but no Rollout Lint commands) or `vscode` (the extension, whose commands have titles).
 * Messages never name a command themselves: they use `{testConnection}`, filled per surface, so the
 * CLI never says "Test TaoToken Connection" and VS Code never sends users to a CLI they may not have.
 */
export type Surface = 'cli' | 'vscode';

/**
 * The phrases a surface fills in, by placeholder. The VS Code titles are the command palette titles
 * of package.nls.json / package.nls.zh-cn.json (`category: title`; a test keeps them equal).
 */
const PHRASES: Record<Surface, Record<Locale, { testConnection: string }>> = {
  cli: { en: { testConnection: '`rollout-lint ping`' }, 'zh-CN': { testConnection: '`rollout-lint ping`' } },
  vscode: { en: { testConnection: '"Rollout Lint: Test TaoToken Connection"' }, 'zh-CN': { testConnection: '“Rollout Lint: 测试 TaoToken 连接”' } },
};

/** Placeholder data naming `surface`'s commands in `locale` (merged into every message's data). */
export function surfacePhrases(locale: Locale, surface: Surface = 'cli'): Record<string, string> {
  return PHRASES[surface][locale];
}

/** Every command name any surface uses in messages, for the test that keeps surfaces apart. */
export function surfaceCommandNames(surface: Surface): string[] {
  return Object.values(PHRASES[surface]).flatMap((p) => Object.values(p).map((v) => v.replace(/^[`"“]|[`"”]$/g, '')));
}
