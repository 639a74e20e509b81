import type { Setting } from '../model/types';

/**
 * True when a setting's value is absent rather than written: Python `None`, YAML `~`/`null`/nothing,
 * JSON `null`. The client then reads its environment variable or its default (openai-python reads
 * `OPENAI_API_KEY` when `api_key=None`), so an absent value is never a placeholder or an empty key.
 */
export function isAbsentValue(setting: Setting): boolean {
  return setting.valueType === 'null';
}

/**
 * True when a value is a reference that its reader resolves, not the value itself: LiteLLM's
 * `os.environ/AZURE_API_BASE` (LiteLLM proxy config docs, "os.environ/" prefix) names an env var.
 * Such a value is treated as dynamic in every role.
 */
export function isReferenceValue(value: string): boolean {
  return /^os\.environ\/[A-Za-z_][A-Za-z0-9_]*$/.test(value.trim());
}
