import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection } from 'vscode-languageserver';
import { loadGrammars } from '../../../server/src/node/grammars';
import { WorkspaceEnv } from '../../../server/src/lsp/env-index';
import { ConfigProvider, rcLoader } from '../../../server/src/lsp/settings';
import { Workspace } from '../../../server/src/lsp/workspace';

describe('WorkspaceEnv: the env index is built once at start', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'rl-envbuilds-'));
    writeFileSync(join(root, '.env'), 'OPENAI_BASE_URL=https://taotoken.net/api/v1\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  function session() {
    const workspace = new Workspace();
    workspace.setFolders([{ uri: pathToFileURL(root).href, name: 'ws' }]);
    const configs = new ConfigProvider({ connection: undefined as unknown as Connection, pullsConfiguration: false, trusted: true, loadRc: rcLoader().load, log: () => undefined });
    configs.setPushedSettings({ rolloutGlobs: ['**/*rollout*.py'] });
    return { configs, env: new WorkspaceEnv(workspace, configs, () => loadGrammars(), () => undefined) };
  }

  it('keeps the index on a settings notification that changes nothing (VS Code sends one when the server registers)', async () => {
    const { configs, env } = session();
    void env.ensure();
    configs.invalidate();
    assert.equal(await env.settingsChanged(), false);
    await env.ensure();
    assert.equal(env.builds, 1);
  });

  it('rebuilds when the settings did change', async () => {
    const { configs, env } = session();
    await env.ensure();
    configs.setPushedSettings({ rolloutGlobs: ['**/other*.py'] });
    configs.invalidate();
    assert.equal(await env.settingsChanged(), true);
    await env.ensure();
    assert.equal(env.builds, 2);
  });
});
