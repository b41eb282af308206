/**
 * JSON with u64 integers. kaspad's wRPC JSON encoding writes u64 fields (nonce, DAA score, blue score,
 * timestamps, amounts) as bare JSON numbers, and they exceed 2^53: `JSON.parse` would round them to
 * doubles. Here an integer literal outside the safe range is read as a `bigint` (smaller ones stay
 * numbers; the readers in ./wire.ts accept both), and a `bigint` is written back as a bare literal.
 */

/** Marks a big integer literal while JSON.parse runs (a NUL cannot appear unescaped in JSON text). */
const BIG = '\u0000u64:';

/** JSON.parse that keeps every integer literal exact: unsafe integers become bigints. */
export function parseJsonExact(text: string): unknown {
  let marked = '';
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string;
    if (c === '"') {
      i = skipString(text, i);
      continue;
    }
    if (c !== '-' && (c < '0' || c > '9')) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && /[\d.eE+-]/.test(text[j] as string)) j++;
    const token = text.slice(i, j);
    if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
      marked += `${text.slice(copied, i)}"\\u0000u64:${token}"`;
      copied = j;
    }
    i = j;
  }
  marked += text.slice(copied);
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(BIG) ? BigInt(value.slice(BIG.length)) : value,
  );
}

/** Index just past the string literal that opens at `start`. */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** JSON.stringify that writes bigints as bare integer literals (u64 fields as kaspad reads them). */
export function stringifyJsonExact(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIG}${v}` : v));
  return json.replace(/"\\u0000u64:(-?\d+)"/g, '$1');
}
