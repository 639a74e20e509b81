import type { Range, SdkCall } from '../../model/types';
import { callTargets, rangeOf, type PyContext } from './context';
import { callArguments, compact } from './env';
import { stringValue } from './literals';

/**
 * SDK methods → the request they send (run against a recording server by test/conformance with
 * openai-python 3.22.1 and 2.54.0, anthropic-python 1.13.0, langchain-openai 1.6.6, and openai-node 7.59.0 /
 * anthropic-node 1.15.0, whose resources use the same paths): the resource paths of openai-python
 * `src/openai/resources/*` and anthropic-python `resources/messages`.
 */
export const SDK_METHODS: { re: RegExp; family: SdkCall['family']; method: SdkCall['method']; path: string }[] = [
  { re: /^(.+?)\.(?:beta\.)?chat\.completions\.(?:create|parse|stream)$/, family: 'openai', method: 'POST', path: '/chat/completions' },
  { re: /^(.+?)\.completions\.create$/, family: 'openai', method: 'POST', path: '/completions' },
  { re: /^(.+?)\.responses\.(?:create|parse|stream)$/, family: 'openai', method: 'POST', path: '/responses' },
  { re: /^(.+?)\.embeddings\.create$/, family: 'openai', method: 'POST', path: '/embeddings' },
  { re: /^(.+?)\.models\.list$/, family: 'openai', method: 'GET', path: '/models' },
  { re: /^(.+?)\.(?:beta\.)?messages\.(?:create|stream)$/, family: 'anthropic', method: 'POST', path: '/v1/messages' },
];

/** Client classes whose instances make the calls above. */
const CLIENT_CLASS = /(^|\.)(Async)?(OpenAI|Anthropic)$/;
/** langchain-openai chat models: one chat request per invoke (`/responses` with `use_responses_api=True`). */
const CHAT_MODEL = /(^|\.)(ChatOpenAI)$/;

function modelOf(ctx: PyContext, call: Parameters<typeof callArguments>[0]): string | undefined {
  return stringValue(callArguments(call).keywords.get('model'), ctx.text);
}

/**
 * Fills `ctx.out.sdkCalls`: each SDK method call with the client construction its receiver is bound to
 * in the file (`client = OpenAI(…)`; the last one before the call), and each `ChatOpenAI(…)`.
 */
export function readSdkCalls(ctx: PyContext): void {
  const targets = callTargets(ctx);
  const constructions = new Map<string, { start: number; group: string; hasBase: boolean; baseRange?: Range }[]>();
  const out: SdkCall[] = [];
  for (const { node } of ctx.collected.calls) {
    const fn = node.childForFieldName('function');
    const callee = compact(fn);
    const target = targets.get(node.id);
    if (fn && CLIENT_CLASS.test(callee) && target !== undefined) {
      const list = constructions.get(target) ?? [];
      const base = callArguments(node).keywords.get('base_url');
      list.push({ start: node.startIndex, group: `call@${fn.startIndex}`, hasBase: base !== undefined, ...(base ? { baseRange: rangeOf(base) } : {}) });
      constructions.set(target, list);
    }
    if (fn && CHAT_MODEL.test(callee)) {
      const kw = callArguments(node).keywords;
      const responses = kw.get('use_responses_api')?.text === 'True';
      const base = kw.get('base_url') ?? kw.get('openai_api_base');
      const hasBase = base !== undefined;
      out.push({ family: 'openai', method: 'POST', path: responses ? '/responses' : '/chat/completions', callee, range: rangeOf(node), clientGroup: `call@${fn.startIndex}`, clientHasBaseUrl: hasBase, ...(base ? { clientBaseRange: rangeOf(base) } : {}), model: modelOf(ctx, node) });
      // langchain-openai 1.6.6 `ChatOpenAI` reads OPENAI_API_BASE when no base_url is passed
      // (langchain_openai/chat_models/base.py: `base_url_env="OPENAI_API_BASE"`; recorded by test/conformance).
      if (!hasBase) ctx.out.envReads.push({ name: 'OPENAI_API_BASE', range: rangeOf(fn) });
    }
  }
  for (const { node } of ctx.collected.calls) {
    const callee = compact(node.childForFieldName('function'));
    const m = SDK_METHODS.find((x) => x.re.test(callee));
    if (!m) continue;
    const receiver = m.re.exec(callee)![1];
    const before = (constructions.get(receiver) ?? []).filter((c) => c.start < node.startIndex);
    const client = before[before.length - 1];
    out.push({ family: m.family, method: m.method, path: m.path, callee, range: rangeOf(node), ...(client ? { clientGroup: client.group, clientHasBaseUrl: client.hasBase, ...(client.baseRange ? { clientBaseRange: client.baseRange } : {}) } : {}), model: modelOf(ctx, node) });
  }
  if (out.length > 0) ctx.out.sdkCalls = out.sort((a, b) => a.range.start - b.range.start);
}
