import type { QueryKey } from '@tanstack/react-query';

/**
 * The `placeholderData` of a query whose key ends in what the visitor steps through (a page of the Blocks list, a
 * chart's period): while the next answer loads, the last one stays on screen (the query's isPlaceholderData marks
 * it busy) rather than blinking to "Loading…". Only an answer whose key differs in that last part stands in: another
 * algorithm's, chain's or account's figures are never shown in the place of the ones asked for.
 */
export function keepWhileLastPartChanges(queryKey: QueryKey) {
  return <T>(previous: T | undefined, previousQuery: { queryKey: QueryKey } | undefined): T | undefined =>
    previousQuery && sameButLast(previousQuery.queryKey, queryKey) ? previous : undefined;
}

/** Two keys of the same length that differ at most in their last part. */
function sameButLast(a: QueryKey, b: QueryKey): boolean {
  return a.length === b.length && a.slice(0, -1).every((part, i) => part === b[i]);
}
