/**
 * What the confirmation before a worker removal says (docs/dashboard.md, Removing workers): the question as the
 * dialog's title, what removal does as its text. Removal deletes the worker and its statistics; what it mined stays
 * in the account's chart, averages and earnings, and the worker comes back, as a new one, when it mines again.
 */
export interface RemovalQuestion {
  title: string;
  text: string;
}

export function removeWorkerQuestion(name: string): RemovalQuestion {
  return {
    title: `Remove worker ${name}?`,
    text: 'Its statistics are deleted; it comes back as a new worker when it mines again. What it mined stays in your earnings and the account’s chart.',
  };
}

/**
 * `offline`: how many workers the summary counts as offline (total − active), undefined while it is loading. The
 * server decides which workers are offline when it removes them, so the number is what the page last knew.
 */
export function removeOfflineQuestion(offline: number | undefined): RemovalQuestion {
  const what =
    offline === undefined || offline <= 0
      ? 'every offline worker'
      : `${offline.toLocaleString('en-US')} offline ${offline === 1 ? 'worker' : 'workers'}`;
  return {
    title: `Remove ${what}?`,
    text: 'Workers without an accepted share in the statistics window are removed with their statistics; each comes back as a new worker when it mines again. What they mined stays in your earnings and the account’s chart.',
  };
}

/**
 * Before removing the workers a miner selected: how many, and the first names (a group of 200 is named by its first
 * few), so a wrong filter is noticed before anything is deleted.
 */
export function removeSelectedQuestion(names: readonly string[]): RemovalQuestion {
  if (names.length === 1) return removeWorkerQuestion(names[0] ?? '');
  const shown = names.slice(0, SELECTED_NAMES_SHOWN).join(', ');
  const more =
    names.length > SELECTED_NAMES_SHOWN
      ? ` and ${(names.length - SELECTED_NAMES_SHOWN).toLocaleString('en-US')} more`
      : '';
  return {
    title: `Remove ${names.length.toLocaleString('en-US')} selected workers?`,
    text: `${shown}${more}: their statistics are deleted; each comes back as a new worker when it mines again. What they mined stays in your earnings and the account’s chart.`,
  };
}

const SELECTED_NAMES_SHOWN = 5;
