import type { Extraction, Format, Range, RequestSite, Setting } from '../model/types';
import { containing } from '../range-lookup';
import type { Resolution } from '../resolve/resolve';
import type { Locale } from '../messages/locale';
import type { Evidence } from './evidence';
import { ROLE_NAMES } from './messages';
import { llmKeyEvidence } from './key';
import { firstBy } from '../group-by';

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
  const find = lookupsOf(extraction, resolution);
  if (at?.[1] === 'site') {
    const site = find.siteAt(Number(at[2]));
    if (site?.isRollout && site.rolloutReason) return proven('site.rollout', { reason: site.rolloutReason });
    if (site) return proven('site.request', { api: site.apiKind, callee: site.callee ?? site.style });
  }
  const offset = at?.[1] === 'setting' ? Number(at[2]) : undefined;
  const setting =
    offset !== undefined
      ? find.settingAt(offset)
      : find.roleSettingsAround(range)[0];
  if (setting?.role === 'baseUrl') {
    const resolved = find.baseUrlOf(setting);
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

interface Lookups {
  siteAt(start: number): RequestSite | undefined;
  settingAt(valueStart: number): Setting | undefined;
  roleSettingsAround(range: Range): Setting[];
  baseUrlOf(setting: Setting): Resolution['baseUrls'][number] | undefined;
}

/** One set of lookups per extraction and resolution (a scan per finding made files with 85k findings quadratic); each yields what the first matching `find` would. */
const lookups = new WeakMap<Extraction, { resolution: Resolution; find: Lookups }>();

function lookupsOf(extraction: Extraction, resolution: Resolution): Lookups {
  const kept = lookups.get(extraction);
  if (kept?.resolution === resolution) return kept.find;
  let sites: Map<number, RequestSite> | undefined;
  let settings: Map<number, Setting> | undefined;
  let around: ((range: Range) => Setting[]) | undefined;
  let baseUrls: Map<Setting, Resolution['baseUrls'][number]> | undefined;
  const find: Lookups = {
    siteAt: (start) => (sites ??= firstBy(extraction.requestSites, (s) => s.range.start)).get(start),
    settingAt: (start) => (settings ??= firstBy(extraction.settings, (s) => s.valueRange.start)).get(start),
    roleSettingsAround: (range) =>
      (around ??= containing(
        extraction.settings.filter((s) => s.role),
        (s) => ({ start: s.contentRange.start, end: Math.max(s.valueRange.end, s.contentRange.end) }),
      ))(range),
    baseUrlOf: (setting) => (baseUrls ??= firstBy(resolution.baseUrls, (b) => b.setting)).get(setting),
  };
  lookups.set(extraction, { resolution, find });
  return find;
}
