/**
 * The miner's choice of workers for a bulk action (docs/dashboard.md, Worker groups). A selection survives paging and
 * a change of filter, but an action only ever takes the selected workers the table still matches: a worker chosen
 * under another filter, or removed since, is never removed or labelled unseen.
 */

interface Identified {
  id: string;
}

/** The selection with `id` added, or taken out when it was in. */
export function toggleSelected(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** The selection with every one of `rows` added (`on`) or taken out: a page's box, "select all matching". */
export function withRows(selected: ReadonlySet<string>, rows: readonly Identified[], on: boolean): Set<string> {
  const next = new Set(selected);
  for (const row of rows) {
    if (on) next.add(row.id);
    else next.delete(row.id);
  }
  return next;
}

/** The selected ones among `rows`, in their order: what a bulk action takes. */
export function selectedAmong<T extends Identified>(selected: ReadonlySet<string>, rows: readonly T[]): T[] {
  return rows.filter((row) => selected.has(row.id));
}

/** The state of a box standing for `rows` (the page's, in the header): all, some or none of them selected. */
export function selectionOf(selected: ReadonlySet<string>, rows: readonly Identified[]): 'all' | 'some' | 'none' {
  const count = rows.filter((row) => selected.has(row.id)).length;
  if (count === 0) return 'none';
  return count === rows.length ? 'all' : 'some';
}

/** What the label dialog starts with: the chosen workers' label when they share one, else empty. */
export function sharedLabel(rows: readonly { label: string | null }[]): string {
  const first = rows[0]?.label ?? null;
  return first !== null && rows.every((row) => row.label === first) ? first : '';
}

/** "2 workers", "1 worker". */
export function workersCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'worker' : 'workers'}`;
}

/**
 * The label dialog's button: "Save label" for a label typed; an empty field takes the workers' labels off ("Remove
 * label"), which means nothing when none of them has one, so the button is then off.
 */
export function labelButton(typed: string, rows: readonly { label: string | null }[]): { text: string; off: boolean } {
  if (typed.trim() !== '') return { text: 'Save label', off: false };
  return { text: 'Remove label', off: !rows.some((row) => row.label !== null) };
}
