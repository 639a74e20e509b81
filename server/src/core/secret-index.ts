/** Length of the pieces by which `secretsIn` finds candidate secrets: `documentSecrets` keeps values of 8 or more characters. */
const PIECE = 8;

/**
 * For `redact(text, known)` over many texts of one document: returns, per text, the secrets of
 * `known` (in their order) that share a piece of `PIECE` characters with it. Every secret `redact`
 * could mask in a text — a whole value, its trimmed form, or a fragment of 12 or more characters —
 * shares such a piece with it, so `redact(text, secretsIn(text))` equals `redact(text, known)`; it
 * costs O(text length) per text instead of O(secrets × text) (a `.env` of 40k keys made each
 * finding's message scan every key). Secrets shorter than `PIECE` are always returned.
 */
export function secretsIn(known: readonly string[]): (text: string) => string[] {
  if (known.length <= 4) return () => [...known];
  const short: number[] = [];
  const byPiece = new Map<string, number[]>();
  known.forEach((secret, i) => {
    const s = secret.trim();
    if (s.length < PIECE) {
      short.push(i);
      return;
    }
    for (let k = 0; k + PIECE <= s.length; k++) {
      const piece = s.slice(k, k + PIECE);
      const list = byPiece.get(piece);
      if (!list) byPiece.set(piece, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  return (text) => {
    const hits = new Set<number>(short);
    for (let k = 0; k + PIECE <= text.length; k++) for (const i of byPiece.get(text.slice(k, k + PIECE)) ?? []) hits.add(i);
    return [...hits].sort((a, b) => a - b).map((i) => known[i]);
  };
}
