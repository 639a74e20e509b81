import { defineRule } from './rule';

/**
 * Pseudo-rule: a `rollout-lint-disable-*` comment that names an unknown rule, sits where it cannot
 * work, or (with `--report-unused-disable-directives`) suppresses nothing. Reported by
 * `applySuppressions`, never by `check`; directives cannot suppress it (configuration can).
 */
export default defineRule({
  meta: {
    id: 'disable-directive',
    title: 'A rollout-lint-disable comment that names an unknown rule, is misplaced or is unused',
    defaultSeverity: 'warning',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: 'safe',
  },
  messages: {
    en: {
      unknownRule: '"{id}" in {directive} is not a Rollout Lint rule id; nothing is suppressed for it (see "rollout-lint rules")',
      unknownDirective: '"{directive}" is not a directive; use rollout-lint-disable-next-line, rollout-lint-disable-line or rollout-lint-disable-file',
      notOwnLine: '{directive} must be on a line of its own; it covers the line below it',
      lineFormat: 'rollout-lint-disable-line works only as a trailing comment in YAML and Python; in {format} files put rollout-lint-disable-next-line on the line above',
      lineAlone: 'rollout-lint-disable-line has no code before it on this line; use rollout-lint-disable-next-line above the line to suppress',
      fileTooLate: 'rollout-lint-disable-file works only in the first {limit} lines of a file; this one is on line {line} and suppresses nothing',
      unused: 'unused {directive}: no {ids} problem was reported where it applies',
      unusedAll: 'unused {directive}: no problem was reported where it applies',
      'fix.remove': 'Remove the unused directive',
    },
    'zh-CN': {
      unknownRule: '{directive} 中的 "{id}" 不是 Rollout Lint 的规则 id；不会因此屏蔽任何问题（见 "rollout-lint rules"）',
      unknownDirective: '"{directive}" 不是有效指令；请使用 rollout-lint-disable-next-line、rollout-lint-disable-line 或 rollout-lint-disable-file',
      notOwnLine: '{directive} 必须独占一行；它作用于下一行',
      lineFormat: 'rollout-lint-disable-line 只能作为 YAML 和 Python 的行尾注释使用；在 {format} 文件中请在上一行写 rollout-lint-disable-next-line',
      lineAlone: 'rollout-lint-disable-line 所在行前面没有代码；请在要屏蔽的行上方使用 rollout-lint-disable-next-line',
      fileTooLate: 'rollout-lint-disable-file 只在文件前 {limit} 行有效；此指令位于第 {line} 行，不会屏蔽任何问题',
      unused: '未使用的 {directive}：其作用范围内没有 {ids} 问题',
      unusedAll: '未使用的 {directive}：其作用范围内没有任何问题',
      'fix.remove': '删除未使用的指令',
    },
  },
  check() {},
});
