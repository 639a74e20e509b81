import type { Extraction, Format, Range } from '../model/types';
import type { Resolution } from '../resolve/resolve';
import type { Locale } from '../messages/locale';
import type { Evidence } from './evidence';
import { ROLE_NAMES } from './messages';
import { llmKeyEvidence } from './key';

/**
 * The evidence line for a finding whose rule gave none, read from what the finding is about
 * (`subject`: `setting@<offset>` or `site@<offset>`, else the range): a base URL's consumers or
 * provider, a key's tie to an endpoint, a setting's role, a request site's rollout reason. Always
 * `proven` (the rule already chose its severity); a fallback names the format.
 */
export function derivedEvidence(
  subject: string | undefined,
  range: Range,
  format: Format,
  extraction: Extraction,
  resolution: Resolution,
  locale: Locale,
): Evidence {
  const proven = (id: Evidence['id'], data: Evidence['data']): Evidence => ({ strength: 'proven', id, data });
  const at = /^(setting|site)@(\d+)$/.exec(subject ?? '');
  if (at?.[1] === 'site') {
    const site = extraction.requestSites.find((s) => s.range.start === Number(at[2]));
    if (site?.isRollout && site.rolloutReason) return proven('site.rollout', { reason: site.rolloutReason });
    if (site) return proven('site.request', { api: site.apiKind, callee: site.callee ?? site.style });
  }
  const offset = at?.[1] === 'setting' ? Number(at[2]) : undefined;
  const setting =
    offset !== undefined
      ? extraction.settings.find((s) => s.valueRange.start === offset)
      : extraction.settings.find((s) => s.role && s.contentRange.start <= range.start && range.end <= Math.max(s.valueRange.end, s.contentRange.end));
  if (setting?.role === 'baseUrl') {
    const resolved = resolution.baseUrls.find((b) => b.setting === setting);
    const consumer = resolved?.consumers[0];
    if (consumer) return proven('baseUrl.consumer', { key: setting.key, consumer: consumer.id, via: consumer.via });
    const provider = resolved?.providers[0];
    if (provider) return proven('baseUrl.provider', { key: setting.key, provider: provider.name });
    return proven('baseUrl.noConsumer', { key: setting.key });
  }
  if (setting?.role === 'apiKey') {
    const key = llmKeyEvidence(setting, resolution);
    if (key) return { ...key, strength: 'proven' };
  }
  if (setting?.role) return proven('setting.role', { key: setting.key, role: ROLE_NAMES[locale][setting.role] ?? setting.role });
  return proven('text', { format });
}
