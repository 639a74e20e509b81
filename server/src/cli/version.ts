/**
 * The CLI version: `version` of the server `package.json` (required, not imported, because the file
 * lies outside `rootDir`; esbuild inlines it into the bundle).
 */
export const VERSION: string = (require('../../package.json') as { version: string }).version;
