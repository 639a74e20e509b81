import type { Consumer } from '../model/types';

/** A joined path that plausibly continues a base URL: `/…`, or a relative API segment (`v1/…`, `chat/…`). */
const PATH_LIKE = /^(\/|(v\d+\w*|chat|completions|responses|messages|models|generate|embeddings)(\/|$))/i;

/** A relative segment written straight after a base (`f"{base}exposed/"`): the join needs the base's own trailing `/`. */
const RELATIVE_SEGMENT = /^[A-Za-z_][\w.-]*(\/|$)/;

/**
 * The consumer that code joining a literal path onto a base URL is (`f"{base}/v1/chat/completions"`,
 * `` `${base}/v1/…` ``, `base + "/v1/…"`): `v1-appending` when the path starts with `/v1`, `raw` for
 * another path-like tail; `undefined` when the tail does not continue a URL path. `via` is the code, shortened.
 */
export function joinedConsumer(appendedPath: string, via: string): Consumer | undefined {
  if (!(PATH_LIKE.test(appendedPath) || RELATIVE_SEGMENT.test(appendedPath))) return undefined;
  return { id: /^\/v1(\/|$)/.test(appendedPath) ? 'v1-appending' : 'raw', via, appendedPath };
}
