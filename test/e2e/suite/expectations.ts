import type * as vscode from 'vscode';

/**
 * A finding the fixture workspace (test/e2e/workspace) must produce: the rule id, its severity and
 * the exact text the diagnostic's range covers (`occurrence`: which appearance of `text`, 0-based).
 */
export interface ExpectedFinding {
  file: string;
  code: string;
  severity: keyof typeof vscode.DiagnosticSeverity;
  text: string;
  occurrence?: number;
}

/** No test opens this file: it shows what the server reports for files only on disk. */
export const NEVER_OPENED = '.env.rollout';

/** At least one known mistake per format (the engine may find more; these must be there). */
export const EXPECTED: readonly ExpectedFinding[] = [
  { file: '.env', code: 'base-url-duplicate-v1', severity: 'Error', text: 'https://taotoken.net/api/v1/v1' },
  { file: '.env', code: 'api-key-whitespace', severity: 'Warning', text: 'sk-test-0000000000000000000000000000abcd ' },
  { file: 'rollout/rollout.yaml', code: 'base-url-endpoint-path', severity: 'Error', text: 'https://taotoken.net/api/v1/chat/completions' },
  { file: 'policy_serving.py', code: 'base-url-query-string', severity: 'Error', text: 'https://taotoken.net/api/v1?utm_source=newsletter' },
  { file: 'scripts/launch.sh', code: 'api-key-placeholder', severity: 'Error', text: 'YOUR_API_KEY' },
  { file: 'openclaw.json', code: 'base-url-duplicate-v1', severity: 'Error', text: 'https://taotoken.net/api/v1/v1' },
  { file: NEVER_OPENED, code: 'base-url-duplicate-v1', severity: 'Error', text: 'https://taotoken.net/api/v1/v1' },
];

/** The files above, each once. */
export const FIXTURE_FILES = [...new Set(EXPECTED.map((e) => e.file))];
