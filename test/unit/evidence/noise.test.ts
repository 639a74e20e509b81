import assert from 'node:assert/strict';
import { lintDocument } from '../../../server/src/core/lint';
import { loadGrammars } from '../../../server/src/node/grammars';
import { blankTemplateActions, templateSyntax } from '../../../server/src/core/evidence/template';
import { fileEvidence, fileSeverityCap } from '../../../server/src/core/evidence/file';
import { DEFAULT_CONFIG } from '../../../server/src/core/config/config';

async function lint(path: string, text: string) {
  return lintDocument({ path, text }, { grammars: await loadGrammars() }).findings;
}

/** Issue 23, noise kinds 1–5: what the evidence model decides, beyond the fixtures' line:col lists. */
describe('evidence model: noise on real repositories (issue 23)', () => {
  describe('kind 1: templated files', () => {
    it('detects Helm/Go, Jinja and cookiecutter templates, and leaves Jinja prompt text in YAML values alone', () => {
      assert.equal(templateSyntax('t/deploy.yaml', 'a: {{ .Values.x }}\n', 'yaml')?.engine, 'go');
      assert.equal(templateSyntax('envoy.yaml', 'a:\n  {% if x %}\n  b: 1\n  {% endif %}\n', 'yaml')?.engine, 'jinja');
      assert.equal(templateSyntax('{{cookiecutter.slug}}/app.py', 'x = 1 # {{ y }}\n', 'python')?.engine, 'cookiecutter');
      assert.equal(templateSyntax('task.yaml', 'doc_to_text: "{{question}}"\n', 'yaml'), undefined);
      assert.equal(templateSyntax('prompt.py', 'T = """{% if x %}hi{% endif %}"""\n', 'python'), undefined);
    });

    it('blanks actions without moving any offset or line', () => {
      const text = 'a: {{ .Values.x }}\n{{- if .b }}\nc: 1\n';
      const blanked = blankTemplateActions(text, templateSyntax('x.yaml', text, 'yaml')!.actions);
      assert.equal(blanked.length, text.length);
      assert.deepEqual(blanked.split('\n').map((l) => l.trimEnd()), ['a:', '', 'c: 1', '']);
    });

    it('a Helm template gives no parse error, and what is certain is still linted', async () => {
      const text = '{{- if .Values.on }}\nenv:\n  {{- toYaml .Values.env | nindent 2 }}\n  OPENAI_BASE_URL: "https://api.openai.com/v1/v1"\n  OPENAI_MODEL: {{ .Values.model }}\n{{- end }}\n';
      const findings = await lint('chart/templates/cm.yaml', text);
      assert.deepEqual(findings.filter((f) => f.severity !== 'hint').map((f) => f.ruleId), ['base-url-duplicate-v1']);
    });

    it('never the same parse error twice on one line', async () => {
      const findings = await lint('rollout.yaml', 'a: {b: [c\nd: e: f: g\n');
      const lines = findings.filter((f) => f.ruleId === 'parse-error').map((f) => f.range.start);
      const lineOf = (o: number) => 'a: {b: [c\nd: e: f: g\n'.slice(0, o).split('\n').length;
      assert.equal(new Set(lines.map(lineOf)).size, lines.length);
    });
  });

  describe('kind 2: what reads a URL', () => {
    it('an embeddings client names the URL it calls (/embeddings), not /chat/completions', async () => {
      const findings = await lint('embed.py', 'from langchain_openai import OpenAIEmbeddings\ne = OpenAIEmbeddings(base_url="https://api.example.com/v1/embeddings")\n');
      const f = findings.find((x) => x.ruleId === 'base-url-endpoint-path');
      assert.ok(f);
      assert.match(f.message, /calls https:\/\/api\.example\.com\/v1\/embeddings\/embeddings/);
      assert.doesNotMatch(f.message, /chat\/completions/);
    });

    it('a value handed whole to requests.post is a URL, even when a client elsewhere in the file takes a base_url', async () => {
      const text = [
        'import requests',
        'from openai import OpenAI',
        'class A:',
        '    def __init__(self):',
        '        self.base_url = "https://api.jina.ai/v1/embeddings"',
        '    def run(self, body):',
        '        return requests.post(self.base_url, json=body)',
        'class B:',
        '    def __init__(self, key, base_url="https://api.openai.com/v1"):',
        '        self.client = OpenAI(api_key=key, base_url=base_url)',
        '',
      ].join('\n');
      assert.deepEqual((await lint('embed.py', text)).filter((f) => f.severity !== 'hint'), []);
    });

    it('a local name is linked only to the client call in its own function', async () => {
      const text = [
        'from openai import OpenAI',
        'def a(key, base_url=None):',
        '    base_url = "https://api.example.com/v1/chat/completions"',
        '    return OpenAI(api_key=key, base_url=base_url)',
        'def b(key, base_url=None):',
        '    base_url = "https://api.example.com/v1/embeddings"',
        '    return base_url',
        '',
      ].join('\n');
      const errors = (await lint('client.py', text)).filter((f) => f.severity === 'error');
      assert.deepEqual(errors.map((f) => f.message.includes('chat/completions')), [true]);
    });
  });

  describe('kind 3: kind of file', () => {
    it('placeholders in examples, docs and cookbooks are hints at most; a .env there stays a loaded config', () => {
      const cap = (path: string) => fileSeverityCap(fileEvidence(path, DEFAULT_CONFIG), 'api-key-placeholder');
      assert.equal(cap('examples/eval.py'), 'hint');
      assert.equal(cap('docs/cookbooks/agents.ipynb'), 'hint');
      assert.equal(cap('examples/app/.env'), undefined);
      assert.equal(cap('src/app.py'), undefined);
      assert.equal(fileSeverityCap(fileEvidence('examples/eval.py', DEFAULT_CONFIG), 'base-url-duplicate-v1'), undefined);
    });
  });

  describe('kinds 4 and 5: values that mean something, other services', () => {
    it('"Bearer None" to a server the code starts is a hint; an empty Azure key with Azure settings is silent', async () => {
      const health = await lint('launcher.py', 'import requests\ndef wait(base_url):\n    requests.get(f"{base_url}/v1/models", headers={"Authorization": "Bearer None"})\n');
      assert.deepEqual(health.map((f) => `${f.ruleId} ${f.severity}`), ['api-key-placeholder hint']);
      const azure = await lint('az.py', 'from openai import AzureOpenAI\nc = AzureOpenAI(api_key="", azure_endpoint="https://x.openai.azure.com", api_version="2024-10-21")\n');
      assert.deepEqual(azure.filter((f) => f.ruleId === 'api-key-empty'), []);
      const plain = await lint('c.py', 'from openai import OpenAI\nc = OpenAI(api_key="", base_url="https://api.openai.com/v1")\n');
      assert.deepEqual(plain.filter((f) => f.ruleId === 'api-key-empty').map((f) => f.severity), ['error']);
    });

    it('an empty RELEASE_BASE_URL joined into a download URL is not an SDK base; an empty OPENAI_BASE_URL still is', async () => {
      const release = await lint('install.sh', 'RELEASE_BASE_URL=""\ncurl -fsSL "${RELEASE_BASE_URL}/cli" -o cli\n');
      assert.deepEqual(release.filter((f) => f.ruleId === 'base-url-empty'), []);
      const sdk = await lint('.env', 'OPENAI_BASE_URL=\n');
      assert.deepEqual(sdk.filter((f) => f.ruleId === 'base-url-empty').map((f) => f.severity), ['warning']);
    });
  });
});
