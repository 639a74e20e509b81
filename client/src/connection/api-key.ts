import { maskSecret } from '../../../server/src/core/model/secret';
import { originOf } from '../../../server/src/core/probe/index';
import { BUILTIN_PROVIDERS } from '../../../server/src/core/providers/profiles';
import type { CommandContext } from '../types';
import { Approvals, storedKeyName } from './keys';
import { sessionOf } from './session';
import { say } from './texts';

/**
 * Asks for an origin (unless given) and then for its API key in a masked input box, and keeps the key
 * in SecretStorage under that origin; an empty key removes the stored one. Resolves to true when a
 * key was stored. The key is never logged or shown, only its mask.
 */
export async function promptForApiKey(ctx: CommandContext, origin?: string): Promise<boolean> {
  const { host, log } = ctx;
  const t = (id: Parameters<typeof say>[1], data?: Record<string, string | number>) => say(host.language, id, data);
  let target = origin && originOf(origin);
  if (!target) {
    const suggested = sessionOf(ctx).lastOrigin ?? originOf(BUILTIN_PROVIDERS.find((p) => p.id === 'taotoken')!.openaiBases[0]);
    const typed = await host.showInputBox({
      title: t('setKey.originTitle'),
      prompt: t('setKey.originPrompt'),
      value: suggested,
      validate: (value) => (originOf(value.trim()) ? undefined : t('setKey.originInvalid')),
    });
    target = typed === undefined ? undefined : originOf(typed.trim());
    if (!target) return false;
  }
  const key = await host.showInputBox({ title: t('setKey.originTitle'), prompt: t('setKey.keyPrompt', { origin: target }), password: true });
  if (key === undefined) return false;
  const trimmed = key.trim();
  if (trimmed === '') {
    await host.secrets.delete(storedKeyName(target));
    const text = t('setKey.removed', { origin: target });
    log.info(text);
    void host.showMessage('info', text, {});
    return false;
  }
  await host.secrets.store(storedKeyName(target), trimmed);
  const text = t('setKey.stored', { masked: maskSecret(trimmed), origin: target });
  log.info(text);
  void host.showMessage('info', text, {});
  return true;
}

/** Forgets every "Always for this origin" answer (kept in globalState) and says how many there were. */
export async function resetApprovals(ctx: CommandContext): Promise<number> {
  const count = await new Approvals(ctx.host.globalState).reset();
  const text = say(ctx.host.language, 'reset.done', { count });
  ctx.log.info(text);
  void ctx.host.showMessage('info', text, {});
  return count;
}
