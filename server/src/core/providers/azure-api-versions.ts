/**
 * Azure OpenAI data-plane API versions, as the `api-version` query parameter takes them.
 *
 * Source: the version folders of the Azure OpenAI inference specification,
 * https://github.com/Azure/azure-rest-api-specs/tree/main/specification/cognitiveservices/data-plane/AzureOpenAI/inference
 * (`stable/<version>` and `preview/<version>`, one folder per released version, each with its
 * `inference.json`/`inference.yaml`), and Microsoft Learn, "Azure OpenAI API version lifecycle"
 * (https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle), which also names
 * `2023-10-01-preview` (authoring) as still supported and the v1 API's `preview`/`latest`.
 * Sorted by date; GA versions have no suffix.
 */
export const AZURE_OPENAI_API_VERSIONS: readonly string[] = [
  '2022-03-01-preview',
  '2022-06-01-preview',
  '2022-12-01',
  '2023-03-15-preview',
  '2023-05-15',
  '2023-06-01-preview',
  '2023-07-01-preview',
  '2023-08-01-preview',
  '2023-09-01-preview',
  '2023-10-01-preview',
  '2023-12-01-preview',
  '2024-02-01',
  '2024-02-15-preview',
  '2024-03-01-preview',
  '2024-04-01-preview',
  '2024-05-01-preview',
  '2024-06-01',
  '2024-07-01-preview',
  '2024-08-01-preview',
  '2024-09-01-preview',
  '2024-10-01-preview',
  '2024-10-21',
  '2024-12-01-preview',
  '2025-01-01-preview',
  '2025-02-01-preview',
  '2025-03-01-preview',
  '2025-04-01-preview',
];

/** The v1 API's values (`api-version=preview` / `latest`), per the lifecycle page above. */
export const AZURE_OPENAI_V1_API_VERSIONS: readonly string[] = ['preview', 'latest'];

/** `YYYY-MM-DD` or `YYYY-MM-DD-preview`, the shape of every dated version above. */
const DATED = /^(\d{4})-(\d{2})-(\d{2})(-preview)?$/;

/** What a value written as an Azure OpenAI `api-version` is. */
export type AzureApiVersionKind =
  /** In the list above (or a v1 value). */
  | 'documented'
  /** A real calendar date in the version shape, earlier than the newest documented version, yet not one of them. */
  | 'undocumented'
  /** A real date after the newest documented version: possibly a version released since the list was made. */
  | 'newer'
  /** The version shape, but no such date (`2024-13-45`, `2023-02-30`). */
  | 'impossibleDate'
  /** Not in the version shape at all (`gpt-4o-2024-08-06`, `0613`, `v2`). */
  | 'notVersion';

/** Classifies `value` (already trimmed). Pure; never throws. */
export function classifyAzureApiVersion(value: string): AzureApiVersionKind {
  if (AZURE_OPENAI_API_VERSIONS.includes(value) || AZURE_OPENAI_V1_API_VERSIONS.includes(value)) return 'documented';
  const m = DATED.exec(value);
  if (!m) return 'notVersion';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || day < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return 'impossibleDate';
  const newest = AZURE_OPENAI_API_VERSIONS[AZURE_OPENAI_API_VERSIONS.length - 1].slice(0, 10);
  return value.slice(0, 10) > newest ? 'newer' : 'undocumented';
}

/**
 * The documented versions nearest in date to `value` (`YYYY-MM-DD…`): up to `count`, GA and preview
 * alike, the closest first (the earlier one on a tie). Empty when `value` does not start with a date.
 */
export function nearestAzureApiVersions(value: string, count = 2): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return [];
  const target = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const at = (v: string) => Date.UTC(Number(v.slice(0, 4)), Number(v.slice(5, 7)) - 1, Number(v.slice(8, 10)));
  return [...AZURE_OPENAI_API_VERSIONS]
    .map((v, i) => ({ v, i, distance: Math.abs(at(v) - target) }))
    .sort((a, b) => a.distance - b.distance || a.i - b.i)
    .slice(0, count)
    .map((e) => e.v);
}
