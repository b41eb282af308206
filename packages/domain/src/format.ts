/**
 * Display formatting shared by the website and server-rendered documents. The precisions come from
 * the spec (section 9): hashrate 2 decimals, profit 5, hashes 1, and so on; callers pass them.
 */
export function fixed(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return (0).toFixed(decimals);
  // Avoid "-0.00" for tiny negatives that round to zero.
  const s = value.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** "abcdef…uvwxyz": strings longer than `head + tail` keep their ends (TXIDs 6/6, stratum URLs 10/10). */
export function abbreviateMiddle(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** The spec's TXID rule: longer than 8 characters → first 6 and last 6. */
export function abbreviateTxid(txid: string): string {
  return txid.length > 8 ? abbreviateMiddle(txid, 6, 6) : txid;
}
