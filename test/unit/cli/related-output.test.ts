import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { runCli, workspace } from './helpers';
import { messageWithRelated, relatedPlaces } from '../../../server/src/cli/format/related';

/** The official OASIS SARIF 2.1.0 schema, from the steering repository's shared folder (absent in a user's clone). */
const SARIF_SCHEMA = join(__dirname, '..', '..', '..', '..', 'shared', 'schemas', 'sarif-schema-2.1.0.json');

/** A `.env` value that `code appending /v1` doubles, read in a Python module one folder down: one finding at each end. */
const FILES = {
  '.env': 'ROLLOUT_BASE_URL=https://taotoken.net/api/v1\n',
  'app/rollout.py': 'import os\nimport requests\n\nROLLOUT = os.environ.get("ROLLOUT_BASE_URL")\n\n\ndef rollout(messages):\n    return requests.post(ROLLOUT + "/v1/chat/completions", json={"model": "m", "messages": messages, "logprobs": True})\n',
};

interface Place {
  path: string;
  line: number;
  column: number;
  message: string;
}

describe('related locations in CLI outputs', () => {
  let ws: { root: string; cleanup: () => void };
  before(() => {
    ws = workspace(FILES);
  });
  after(() => ws.cleanup());

  it('ESLint JSON: a `related` list and the places named in the message', async () => {
    const { out } = await runCli(ws.root, ['.', '--format', 'json']);
    const results = JSON.parse(out) as { filePath: string; messages: { ruleId: string; message: string; line: number; related?: Place[] }[] }[];
    const env = results.find((r) => r.filePath.endsWith('.env'))!.messages.find((m) => m.ruleId === 'base-url-duplicate-v1')!;
    assert.deepEqual(env.related?.map((p) => [p.path, p.line, p.column]), [['app/rollout.py', 4, 11]]);
    assert.match(env.related![0].message, /^read here: /);
    // the rule's message names the read already (`ROLLOUT + "/v1/…" (app/rollout.py:4)`): nothing appended
    assert.match(env.message, /\(app\/rollout\.py:4\) appends/);
    assert.doesNotMatch(env.message, /read here/);
    const read = results.find((r) => r.filePath.endsWith('rollout.py'))!.messages.find((m) => m.ruleId === 'base-url-duplicate-v1')!;
    assert.deepEqual(read.related?.map((p) => [p.path, p.line, p.column, p.message]), [['.env', 1, 18, 'ROLLOUT_BASE_URL is defined here']]);
    // the message already names .env:1, so nothing is appended
    assert.match(read.message, /^ROLLOUT_BASE_URL from \.env:1: /);
    assert.doesNotMatch(read.message, /defined here/);
  });

  it('SARIF: relatedLocations with regions and messages, valid against the 2.1.0 schema', async function () {
    const { out } = await runCli(ws.root, ['.', '--format', 'sarif']);
    const log = JSON.parse(out);
    const results = log.runs[0].results as { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[]; relatedLocations?: { id: number; physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } }; message: { text: string } }[] }[];
    const at = (uri: string) => results.find((r) => r.ruleId === 'base-url-duplicate-v1' && r.locations[0].physicalLocation.artifactLocation.uri === uri)!;
    const fromEnv = at('.env').relatedLocations!;
    assert.deepEqual(fromEnv.map((l) => [l.id, l.physicalLocation.artifactLocation.uri, l.physicalLocation.artifactLocation.uriBaseId, l.physicalLocation.region.startLine, l.physicalLocation.region.startColumn]), [[0, 'app/rollout.py', '%SRCROOT%', 4, 11]]);
    assert.match(fromEnv[0].message.text, /^read here: /);
    assert.equal(at('app/rollout.py').relatedLocations![0].message.text, 'ROLLOUT_BASE_URL is defined here');
    if (!existsSync(SARIF_SCHEMA)) {
      console.log(`      schema check skipped: ${SARIF_SCHEMA} is absent (it comes with ../shared)`);
      return;
    }
    const { $schema: _draft, id, ...rest } = JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile({ ...rest, $id: id });
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  });

  it('text: one "→ path:line:col: message" line per related place', async () => {
    const { out } = await runCli(ws.root, ['.']);
    assert.match(out, /^\.env:1:18: error: .*\n.*\n.*\n {2}→ app\/rollout\.py:4:11: read here: /m);
    assert.match(out, /^app\/rollout\.py:4:11: .*\n.*\n.*\n {2}→ \.env:1:18: ROLLOUT_BASE_URL is defined here$/m);
  });

  it('GitHub annotations and GitLab Code Quality keep messages that name the places already', async () => {
    const github = (await runCli(ws.root, ['.', '--format', 'github'])).out;
    assert.match(github, /^::error file=app\/rollout\.py,.*::ROLLOUT_BASE_URL from \.env:1: base URL[^\n]*\(404\)$/m);
    const gitlab = JSON.parse((await runCli(ws.root, ['.', '--format', 'gitlab'])).out) as { description: string; location: { path: string } }[];
    assert.doesNotMatch(gitlab.find((i) => i.location.path === '.env')!.description, /read here/);
  });

  it('messageWithRelated appends only the places a message does not name', () => {
    const place = (path: string, line: number, message: string) => ({ path, line, column: 1, endLine: line, endColumn: 2, message });
    assert.equal(messageWithRelated('m', []), 'm');
    assert.equal(messageWithRelated('X from .env:1: m', [place('.env', 1, 'X is defined here')]), 'X from .env:1: m');
    assert.equal(messageWithRelated('m', [place('a.py', 3, 'read here: f(x)'), place('b/c.ts', 9, 'read here: g')]), 'm (a.py:3: read here: f(x); b/c.ts:9: read here: g)');
  });

  it('relatedPlaces re-bases paths from the project root onto the repository root', () => {
    const finding = { ruleId: 'r', severity: 'error' as const, messageId: 'x', data: {}, message: 'm', range: { start: 0, end: 1 }, fixes: [], related: [{ location: { path: '.env', range: { start: 0, end: 1 }, start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'here' }] };
    const places = relatedPlaces({ absPath: join('/repo', 'sub', 'app', 'x.py'), lintPath: 'app/x.py' }, finding, '/repo');
    assert.deepEqual(places, [{ path: 'sub/.env', line: 1, column: 1, endLine: 1, endColumn: 2, message: 'here' }]);
  });

  it('zh-CN: the related messages are localised', async () => {
    const { out } = await runCli(ws.root, ['.', '--format', 'json', '--lang', 'zh-CN']);
    const results = JSON.parse(out) as { filePath: string; messages: { related?: Place[] }[] }[];
    const places = results.flatMap((r) => r.messages.flatMap((m) => m.related ?? []));
    assert.ok(places.some((p) => p.message === 'ROLLOUT_BASE_URL 在此定义'));
    assert.ok(places.some((p) => p.message.startsWith('在此读取：')));
  });
});
