import { defineRule } from './rule';
import { subjectOf } from './util';
import { bareHost, isLoopbackHost } from '../model/hosts';
import { parseBaseUrl } from '../resolve/urls';
import { roleOf } from '../resolve/roles';
import type { Setting } from '../model/types';

/** Compose `services.<name>.environment.<KEY>` (the name JSON-quoted when it holds a dot). */
const COMPOSE_ENV = /^services\.("(?:[^"\\]|\\.)*"|[^."]+)\.environment\./;
/** Compose `services.<name>.env_file` (a string, a list, or list items with `path`). */
const COMPOSE_ENV_FILE = /^services\.("(?:[^"\\]|\\.)*"|[^."]+)\.env_file(?:\[\d+\])?(?:\.path)?$/;
/** Kubernetes `….containers[i].env.<NAME>` (pods, deployments, jobs, statefulsets). */
const K8S_ENV = /^(.*\b(?:containers|initContainers))\[(\d+)\]\.env\./;
/**
 * Commands that start an inference server in the same container, so loopback reaches it (SGLang,
 * sgl-router, vLLM, ms-swift, TRL, LMDeploy, Ollama and TGI launch commands, per their docs).
 */
const SERVER_LAUNCH = /\b(?:sglang\.launch_server|sglang_router\.launch_(?:router|server)|vllm\s+serve|vllm\.entrypoints|swift\s+(?:rollout|deploy)|trl\s+vllm-serve|lmdeploy\s+serve|ollama\s+serve|text-generation-launcher)\b/;

function docOf(setting: Setting): string {
  return /^doc\d+:/.exec(setting.group)?.[0] ?? '';
}

/** Where a setting sits: a compose service or a pod's container, and whether loopback could still be right there. */
function containerOf(setting: Setting, all: readonly Setting[]): { kind: 'service' | 'container'; name: string; excused: boolean } | undefined {
  const doc = docOf(setting);
  const same = all.filter((s) => docOf(s) === doc);
  const compose = COMPOSE_ENV.exec(setting.path);
  if (compose) {
    const prefix = `services.${compose[1]}.`;
    const mode = same.find((s) => s.path === `${prefix}network_mode`)?.value ?? '';
    const command = same.filter((s) => s.path.startsWith(`${prefix}command`) || s.path.startsWith(`${prefix}entrypoint`)).map((s) => s.value ?? '').join(' ');
    const name = compose[1].startsWith('"') ? (JSON.parse(compose[1]) as string) : compose[1];
    return { kind: 'service', name, excused: /^(host|service:|container:)/.test(mode) || SERVER_LAUNCH.test(command) };
  }
  const k8s = K8S_ENV.exec(setting.path);
  if (!k8s) return undefined;
  const list = `${k8s[1]}[`;
  const indices = new Set(same.filter((s) => s.path.startsWith(list)).map((s) => s.path.slice(list.length).split(']')[0]));
  const prefix = `${k8s[1]}[${k8s[2]}].`;
  const command = same.filter((s) => s.path.startsWith(`${prefix}command`) || s.path.startsWith(`${prefix}args`)).map((s) => s.value ?? '').join(' ');
  const hostNetwork = same.some((s) => /(^|\.)hostNetwork$/.test(s.path) && s.value === 'true');
  const name = same.find((s) => s.path === `${prefix}name`)?.value ?? `#${Number(k8s[2]) + 1}`;
  return { kind: 'container', name, excused: indices.size > 1 || hostNetwork || SERVER_LAUNCH.test(command) };
}

/**
 * A loopback destination (`127.0.0.1`, `localhost`, `::1`) in the environment of a docker-compose
 * service or a Kubernetes container. Inside a container loopback is the container itself (Docker
 * networking docs; a pod's containers share one network namespace), so the rollout server on the
 * host or in another service is unreachable: connection refused. Not flagged when the service uses
 * `network_mode: host`/`service:…`, the pod uses `hostNetwork: true` or has other containers (a
 * sidecar may serve on localhost), or the same container starts the inference server. Variables a
 * compose service loads with `env_file:` are checked too (read through `WorkspaceFacts.envFile`);
 * a file outside the work tree is not read, and a hint says so.
 */
export default defineRule({
  meta: {
    id: 'base-url-loopback-in-container',
    title: 'Loopback address as a destination inside a container (compose service, Kubernetes pod)',
    defaultSeverity: 'warning',
    formats: ['yaml'],
    fixable: false,
  },
  messages: {
    en: {
      loopback: '{key} points at {host} inside {where}; there loopback is the container itself, so the server is unreachable (connection refused). {hint}',
      envFile: '{key} in {file} points at {host}, and {where} loads that file; there loopback is the container itself, so the server is unreachable (connection refused). {hint}',
      envFileOutside: '{file} lies outside this work tree, so Rollout Lint does not read it; its variables are not checked',
      'hint.service': 'Use the server\'s compose service name, or host.docker.internal for a server on the host',
      'hint.container': 'Use the server\'s Service DNS name (e.g. vllm.<namespace>.svc.cluster.local)',
      service: 'compose service "{name}"',
      container: 'container "{name}"',
    },
    'zh-CN': {
      loopback: '{key} 在{where}中指向 {host}；容器内的回环地址就是容器自身，访问不到服务器（连接被拒绝）。{hint}',
      envFile: '{file} 中的 {key} 指向 {host}，而{where}加载了这个文件；容器内的回环地址就是容器自身，访问不到服务器（连接被拒绝）。{hint}',
      envFileOutside: '{file} 位于当前工作树之外，Rollout Lint 不读取它，其中的变量未被检查',
      'hint.service': '请改用服务器的 compose 服务名，宿主机上的服务器可用 host.docker.internal',
      'hint.container': '请改用服务器的 Service DNS 名称（如 vllm.<namespace>.svc.cluster.local）',
      service: ' compose 服务“{name}”',
      container: '容器“{name}”',
    },
  },
  check({ document, extraction, config, facts, report, t }) {
    for (const setting of extraction.settings) {
      const envFile = setting.kind === 'property' && setting.value ? COMPOSE_ENV_FILE.exec(setting.path) : null;
      if (envFile) {
        const vars = facts.envFile(document.path, setting.value!.trim());
        if (vars === 'outsideWorkTree') {
          report({ messageId: 'envFileOutside', data: { file: setting.value!.trim() }, range: setting.contentRange, subject: `${subjectOf(setting)}:outside`, severity: 'hint' });
          continue;
        }
        for (const [key, value] of Object.entries(vars ?? {})) {
          const variable: Setting = { ...setting, key, kind: 'env', value, path: `services.${envFile[1]}.environment.${key}` };
          const role = roleOf(variable, config.extraKeys);
          const host = role === 'host' ? bareHost(value) : role === 'baseUrl' ? parseBaseUrl(value.trim())?.host : undefined;
          if (!host || !isLoopbackHost(host)) continue;
          const container = containerOf(variable, extraction.settings);
          if (!container || container.excused) continue;
          report({
            messageId: 'envFile',
            data: { key, file: setting.value!.trim(), host: bareHost(host), where: t(container.kind, { name: container.name }), hint: t(`hint.${container.kind}`) },
            range: setting.contentRange,
            subject: `${subjectOf(setting)}:${key}`,
          });
        }
        continue;
      }
      if (setting.kind !== 'env' || (setting.role !== 'baseUrl' && setting.role !== 'host') || setting.value === undefined) continue;
      const host = setting.role === 'host' ? bareHost(setting.value) : parseBaseUrl(setting.value.trim())?.host;
      if (!host || !isLoopbackHost(host)) continue;
      const container = containerOf(setting, extraction.settings);
      if (!container || container.excused) continue;
      const source = document.text.slice(setting.contentRange.start, setting.contentRange.end).toLowerCase();
      const at = source.indexOf(bareHost(host));
      report({
        messageId: 'loopback',
        data: { key: setting.key, host: bareHost(host), where: t(container.kind, { name: container.name }), hint: t(`hint.${container.kind}`) },
        range: at >= 0 ? { start: setting.contentRange.start + at, end: setting.contentRange.start + at + bareHost(host).length } : setting.contentRange,
        subject: subjectOf(setting),
      });
    }
  },
});
