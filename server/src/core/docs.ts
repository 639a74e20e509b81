/**
 * Where rule documentation lives: the `repository` field of the root `package.json` plus
 * `/blob/main/docs/rules/<id>.md` (a test keeps this constant equal to package.json).
 */
export const REPOSITORY_URL = 'https://github.com/rollout-lint/rollout-lint';

/** The docs page of a rule (`Diagnostic.codeDescription.href`, SARIF `helpUri`). */
export function docsUrl(ruleId: string): string {
  return `${REPOSITORY_URL}/blob/main/docs/rules/${ruleId}.md`;
}
