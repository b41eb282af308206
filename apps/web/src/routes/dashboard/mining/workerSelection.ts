/**
 * The miner's choice of workers for a bulk action (docs/dashboard.md, Worker groups). The server pages the table, so a
 * selection keeps each chosen worker's id, name and label (what the actions and their questions name), and it belongs
 * to the filters and search it was made under: the table clears it when they change, so an action only ever takes
 * workers that matched what the miner was looking at when they were chosen.
 */

/** What a bulk action needs of a chosen worker. */
export interface ChosenWorker {
  id: string;
  name: string;
  label: string | null;
}

export type Selection = ReadonlyMap<string, ChosenWorker>;

export const NO_SELECTION: Selection = new Map();

/** The selection with `worker` added, or taken out when it was in. */
export function toggleSelected(selected: Selection, worker: ChosenWorker): Selection {
  const next = new Map(selected);
  if (next.has(worker.id)) next.delete(worker.id);
  else next.set(worker.id, worker);
  return next;
}

/** The selection with every one of `rows` added (`on`) or taken out: a page's box, "select all matching". */
export function withRows(selected: Selection, rows: readonly ChosenWorker[], on: boolean): Selection {
  const next = new Map(selected);
  for (const row of rows) {
    if (on) next.set(row.id, row);
    else next.delete(row.id);
  }
  return next;
}

/** The state of a box standing for `rows` (the page's, in the header): all, some or none of them selected. */
export function selectionOf(selected: Selection, rows: readonly { id: string }[]): 'all' | 'some' | 'none' {
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
