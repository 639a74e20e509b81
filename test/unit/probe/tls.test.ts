import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probe } from '../../../server/src/core/probe/probe';
import { loopbackTransport, onServer, startScriptedServer, type ScriptedServer } from '../../support/scripted-server';
import { CHAT_WITH_LOGPROBS, KEY, MODELS } from './helpers';

/** A throw-away self-signed certificate for api.example.com, made with the openssl CLI; undefined without it. */
function makeCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'rollout-lint-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=api.example.com', '-addext', 'subjectAltName=DNS:api.example.com', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('probe over TLS (scripted HTTPS server, self-signed CA passed to the transport)', () => {
  let tls: { key: string; cert: string } | undefined;
  let server: ScriptedServer;
  before(async function () {
    tls = makeCertificate();
    if (!tls) this.skip();
    server = await startScriptedServer(
      [
        { method: 'GET', path: '/v1/models', status: 200, body: MODELS('m') },
        { method: 'POST', path: '/v1/chat/completions', status: 200, body: CHAT_WITH_LOGPROBS },
      ],
      tls,
    );
  });
  after(() => server?.close());

  it('https with SNI and a trusted certificate: dns, connect, tls, models, chat all ok', async () => {
    const transport = loopbackTransport({ ca: tls!.cert });
    try {
      const report = await probe({ baseUrl: onServer('https://api.example.com/v1', server), consumer: 'openai-sdk', apiKey: KEY }, transport);
      assert.equal(report.verdict, 'ok');
      assert.deepEqual(report.steps.map((s) => [s.name, s.verdict]), [['dns', 'ok'], ['connect', 'ok'], ['tls', 'ok'], ['models', 'ok'], ['chat', 'ok']]);
    } finally {
      await transport.close();
    }
  });

  it('a certificate for another name is a tls verdict with the certificate hint', async () => {
    const transport = loopbackTransport({ ca: tls!.cert });
    try {
      const report = await probe({ baseUrl: onServer('https://other.example.com/v1', server), consumer: 'openai-sdk' }, transport);
      assert.equal(report.verdict, 'tls');
      assert.equal(report.steps.at(-1)?.detail, 'ERR_TLS_CERT_ALTNAME_INVALID');
      assert.match(report.explanation.en, /certificate is not trusted/);
    } finally {
      await transport.close();
    }
  });

  it('an untrusted (self-signed) certificate without the CA is a tls verdict', async () => {
    const transport = loopbackTransport();
    try {
      const report = await probe({ baseUrl: onServer('https://api.example.com/v1', server), consumer: 'openai-sdk' }, transport);
      assert.equal(report.verdict, 'tls');
      assert.match(String(report.steps.at(-1)?.detail), /SELF_SIGNED|UNABLE_TO_VERIFY/);
    } finally {
      await transport.close();
    }
  });
});
