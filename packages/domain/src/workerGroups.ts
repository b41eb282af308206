/**
 * Worker groups (docs/dashboard.md, "Worker groups"): farms name their machines by rack or room
 * (`rack1-s19-07`, `roomB_l7_12`), so a worker's group is its label when the miner chose one, else its
 * name's prefix up to and including the first separator (`rack1-`, `roomB_`). A name without a
 * separator, or one that starts or ends with it, has no group: guessing one from `rig7` would put
 * every `rigN` of a small miner in a group of one each.
 */

/** The most characters of a label (the column's check in migration 0026). */
export const MAX_WORKER_LABEL = 40;

const SEPARATOR = /[-_.]/;

/** The name's prefix up to and including its first separator, or null (see above). */
export function namePrefix(name: string): string | null {
  const at = name.search(SEPARATOR);
  if (at <= 0 || at === name.length - 1) return null;
  return name.slice(0, at + 1);
}

/** The worker's group: its label, else its name's prefix, else null (ungrouped). */
export function workerGroup(name: string, label: string | null): string | null {
  return label ?? namePrefix(name);
}

/**
 * A label as a miner typed it: trimmed, inner runs of white space made one space; empty means "no
 * label" (null). Undefined when it is too long or holds control characters, which the caller refuses.
 */
export function normalizeLabel(text: string): string | null | undefined {
  const label = text.trim().replace(/\s+/g, ' ');
  if (label === '') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (label.length > MAX_WORKER_LABEL || /[\u0000-\u001f\u007f]/.test(label)) return undefined;
  return label;
}
