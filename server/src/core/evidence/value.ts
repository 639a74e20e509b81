import type { Setting } from '../model/types';

/**
 * True when a setting's value is absent rather than written: Python `None`, YAML `~`/`null`/nothing,
 * JSON `null`. The client then reads its environment variable or its default (openai-python reads
 * `OPENAI_API_KEY` when `api_key=None`), so an absent value is never a placeholder or an empty key.
 */
export function isAbsentValue(setting: Setting): boolean {
  return setting.valueType === 'null';
}
