import * as assert from 'node:assert/strict';
import { extractYaml } from '../../../server/src/core/formats/yaml';
import { applyInsertion, assertWellFormed, settingAt, slice } from './extraction-helpers';

function extract(text: string, path = 'config.yaml') {
  const extraction = extractYaml(text, path);
  assertWellFormed(text, extraction);
  return extraction;
}

describe('extractYaml: env definitions and request sites', () => {
  describe('env definitions', () => {
    it('reads compose environment maps and lists as env settings only', () => {
      const text = [
        'services:',
        '  api:',
        '    image: example/api',
        '    environment:',
        '      OPENAI_BASE_URL: http://sglang:30000/v1',
        '      PASSED_THROUGH:',
        '  worker:',
        '    environment:',
        '      - OPENAI_API_KEY=sk-test-0000',
        '      - "OPENAI_BASE_URL=http://a/v1?x=1"',
        '      - FROM_HOST',
        "      - 'Q=a=b'",
        '',
      ].join('\n');
      const x = extract(text);
      assert.deepEqual(
        x.settings.filter((s) => s.kind === 'property').map((s) => s.path),
        ['services.api.image'],
      );

      const map = settingAt(x, 'services.api.environment.OPENAI_BASE_URL', 'env');
      assert.equal(map.key, 'OPENAI_BASE_URL');
      assert.equal(slice(text, map.keyRange), 'OPENAI_BASE_URL');
      assert.equal(slice(text, map.valueRange), 'http://sglang:30000/v1');
      assert.equal(map.group, 'services.api.environment');
      const passed = settingAt(x, 'services.api.environment.PASSED_THROUGH');
      assert.deepEqual([passed.value, passed.valueType], [undefined, 'null']);

      const key = settingAt(x, 'services.worker.environment.OPENAI_API_KEY', 'env');
      assert.equal(slice(text, key.keyRange), 'OPENAI_API_KEY');
      assert.equal(slice(text, key.valueRange), 'sk-test-0000');
      assert.equal(slice(text, key.statementRange), 'OPENAI_API_KEY=sk-test-0000');
      assert.deepEqual([key.value, key.valueType, key.quote, key.group], ['sk-test-0000', 'string', '', 'services.worker.environment']);

      const quoted = settingAt(x, 'services.worker.environment.OPENAI_BASE_URL');
      assert.equal(slice(text, quoted.keyRange), 'OPENAI_BASE_URL');
      assert.equal(slice(text, quoted.valueRange), 'http://a/v1?x=1');
      assert.equal(slice(text, quoted.statementRange), '"OPENAI_BASE_URL=http://a/v1?x=1"');
      assert.equal(quoted.value, 'http://a/v1?x=1');

      const bare = settingAt(x, 'services.worker.environment.FROM_HOST');
      assert.deepEqual([bare.value, bare.valueType, bare.raw], [undefined, 'dynamic', '']);
      assert.equal(slice(text, bare.keyRange), 'FROM_HOST');

      const split = settingAt(x, 'services.worker.environment.Q');
      assert.equal(split.value, 'a=b');
      assert.equal(slice(text, split.valueRange), 'a=b');
    });

    it('reads k8s {name, value} lists and any env: mapping', () => {
      const text = [
        'spec:',
        '  containers:',
        '    - name: app',
        '      env:',
        '        - name: OPENAI_BASE_URL',
        '          value: "http://svc:8000/v1"',
        '        - name: FROM_SECRET',
        '          valueFrom: {secretKeyRef: {name: s, key: k}}',
        'jobs:',
        '  build:',
        '    env:',
        '      API_KEY: sk-test-1',
        '',
      ].join('\n');
      const x = extract(text);
      const k8s = settingAt(x, 'spec.containers[0].env.OPENAI_BASE_URL', 'env');
      assert.equal(slice(text, k8s.keyRange), 'OPENAI_BASE_URL');
      assert.equal(slice(text, k8s.valueRange), '"http://svc:8000/v1"');
      assert.equal(slice(text, k8s.contentRange), 'http://svc:8000/v1');
      assert.equal(k8s.group, 'spec.containers[0].env');
      assert.ok(slice(text, k8s.statementRange).startsWith('name: OPENAI_BASE_URL'));
      assert.equal(x.settings.filter((s) => s.kind === 'env' && s.key === 'FROM_SECRET').length, 0);
      const actions = settingAt(x, 'jobs.build.env.API_KEY', 'env');
      assert.equal(actions.value, 'sk-test-1');
      assert.equal(actions.group, 'jobs.build.env');
    });
  });

  describe('request sites', () => {
    const text = [
      'actor_rollout_ref:',
      '  rollout:',
      '    temperature: 1.0',
      '    logprobs: true',
      '  sampling_params: {max_tokens: 16, top_logprobs: 2}',
      'generate:',
      '  return_logprob: true',
      'request:',
      '  model: m',
      '  messages: []',
      'other:',
      '  chat_template_kwargs:',
      '    enable_thinking: false',
      '',
    ].join('\n');
    const x = extract(text);
    const site = (anchor: string) => {
      const found = x.requestSites.filter((s) => slice(text, s.anchorRange) === anchor);
      assert.equal(found.length, 1, anchor);
      return found[0];
    };

    it('finds named mappings and mappings holding a log-prob key, nothing else', () => {
      assert.deepEqual(
        x.requestSites.map((s) => slice(text, s.anchorRange)),
        ['rollout', 'sampling_params', 'generate', 'request'],
      );
    });

    it('a block mapping: range, params, kind and insertion in its style', () => {
      const s = site('rollout');
      assert.equal(s.style, 'mapping');
      assert.equal(s.format, 'yaml');
      assert.equal(s.apiKind, 'unknown');
      assert.equal(slice(text, s.range), 'temperature: 1.0\n    logprobs: true');
      assert.deepEqual(Object.keys(s.params), ['temperature', 'logprobs']);
      assert.equal(s.params.logprobs, settingAt(x, 'actor_rollout_ref.rollout.logprobs'));
      assert.equal(s.isRollout, true);
      assert.match(s.rolloutReason ?? '', /actor_rollout_ref\.rollout/);
      assert.deepEqual(s.insertion, { offset: text.indexOf('logprobs: true') + 'logprobs: true'.length, prefix: '\n    ', suffix: '' });
      const edited = applyInsertion(text, s.insertion!, 'top_logprobs: 1');
      const again = extract(edited);
      assert.equal(again.parseProblems.length, 0);
      assert.equal(settingAt(again, 'actor_rollout_ref.rollout.top_logprobs').value, '1');
    });

    it('a flow mapping: chat kind and insertion after the last member', () => {
      const s = site('sampling_params');
      assert.equal(s.apiKind, 'chat');
      assert.equal(slice(text, s.range), '{max_tokens: 16, top_logprobs: 2}');
      assert.deepEqual(s.insertion, { offset: text.indexOf('top_logprobs: 2') + 'top_logprobs: 2'.length, prefix: ', ', suffix: '' });
      const again = extract(applyInsertion(text, s.insertion!, 'logprobs: true'));
      assert.equal(settingAt(again, 'actor_rollout_ref.sampling_params.logprobs').valueType, 'boolean');
    });

    it('sglang-generate for return_logprob; chat for messages; rollout only by word', () => {
      assert.equal(site('generate').apiKind, 'sglang-generate');
      assert.equal(site('generate').isRollout, false);
      assert.equal(site('generate').rolloutReason, undefined);
      assert.equal(site('request').apiKind, 'chat');
      assert.deepEqual(Object.keys(site('request').params), ['model']);
      const byFile = extractYaml('generate:\n  return_logprob: true\n', 'configs/grpo_rollout.yaml').requestSites[0];
      assert.equal(byFile.isRollout, true);
      assert.match(byFile.rolloutReason ?? '', /grpo_rollout\.yaml/);
      assert.equal(extractYaml('generate:\n  return_logprob: true\n', 'configs/rollouter.yaml').requestSites[0].isRollout, false);
    });

    it('a root mapping with logprobs anchors at its first key; CRLF insertions use CRLF', () => {
      const t = 'logprobs: true\r\nmodel: m\r\n';
      const [s] = extract(t).requestSites;
      assert.equal(slice(t, s.anchorRange), 'logprobs');
      assert.deepEqual(s.insertion, { offset: t.indexOf('model: m') + 'model: m'.length, prefix: '\r\n', suffix: '' });
    });

    it('indents an insertion into a mapping that starts a list item like its keys', () => {
      const t = 'requests:\n  - logprobs: true\n    model: m\n';
      const [s] = extract(t).requestSites;
      assert.equal(s.insertion!.prefix, '\n    ');
      assert.equal(settingAt(extract(applyInsertion(t, s.insertion!, 'top_logprobs: 1')), 'requests[0].top_logprobs').value, '1');
    });

    it('records each mapping that holds settings in groups', () => {
      const group = x.groups?.['actor_rollout_ref.rollout'];
      assert.ok(group);
      assert.equal(slice(text, group.anchorRange), 'rollout');
      assert.deepEqual(group.insertion, site('rollout').insertion);
    });
  });
});
