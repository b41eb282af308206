import { alertGroupOf, type HashrateAlert, MAX_ALERT_GROUP } from '@lodestone/contract';
import {
  type AlgorithmKey,
  AUTOMATIC_THRESHOLD,
  algorithmByKey,
  displayHashrate,
  Exact,
  HASHRATE_UNITS,
} from '@lodestone/domain';
import { formOf } from '../../../api/formBody';
import { formatDateTime } from '../../../lib/dates';

/**
 * Pure helpers of the hashrate alerts panel (docs/notifications.md, Hashrate alerts): a rule in words, its state, the
 * channels its messages go to, and the new rule's form — checked with the server's own rules and messages, so a
 * mistake is named before the call and a refusal reads the same either way.
 */

/** What a rule watches, in words: "Hashrate below 5 Th/s", "… below 70% of its 24 h average", "Online workers below 10". */
export function hashrateAlertText(
  alert: Pick<HashrateAlert, 'kind' | 'threshold_hashrate' | 'threshold_percent' | 'min_workers'>,
): string {
  if (alert.kind === 'workers') return `Online workers below ${alert.min_workers ?? 1}`;
  if (alert.threshold_hashrate !== null) {
    const shown = displayHashrate(Exact.of(alert.threshold_hashrate).toString());
    return `Hashrate below ${shown.value} ${shown.units}`;
  }
  return `Hashrate below ${alert.threshold_percent ?? Math.round(AUTOMATIC_THRESHOLD * 100)}% of its 24 h average`;
}

/** Whose hashrate or workers: the group's name, or the whole account. */
export function hashrateAlertGroupText(alert: Pick<HashrateAlert, 'group'>): string {
  return alert.group ?? 'Whole account';
}

/** "OK", or "Alerting since 2026-11-25 17:10" (in the browser's time zone). */
export function hashrateAlertStateText(alert: Pick<HashrateAlert, 'low' | 'changed_at'>): string {
  if (!alert.low) return 'OK';
  return alert.changed_at === null ? 'Alerting' : `Alerting since ${formatDateTime(alert.changed_at)}`;
}

/** The user's settings that decide where alerts go (as for the offline alert). */
export interface AlertChannels {
  /** Telegram notifications are on. */
  telegramNotifications: boolean;
  /** A Telegram chat is linked. */
  telegramLinked: boolean;
  /** Alerts go to Telegram only while they go there. */
  telegramOnly: boolean;
}

/** Where the alerts of these rules go, as a sentence. */
export function alertChannelsText(channels: AlertChannels): string {
  const telegram = channels.telegramNotifications && channels.telegramLinked;
  if (telegram && channels.telegramOnly)
    return 'Alerts go to your linked Telegram chat only, as the offline alerts do.';
  if (telegram) return 'Alerts go by e-mail and to your linked Telegram chat, as the offline alerts do.';
  return 'Alerts go by e-mail, as the offline alerts do. Link a Telegram chat and turn Telegram notifications on to get them there too.';
}

/** The kind of a new rule: a fixed hashrate, a share of the 24-hour average, or a count of online workers. */
export type AlertDraftKind = 'fixed' | 'automatic' | 'workers';

/** The new rule as typed. */
export interface HashrateAlertDraft {
  algorithm: AlgorithmKey;
  kind: AlertDraftKind;
  /** The fixed threshold as typed, in `unit`. */
  hashrate: string;
  unit: (typeof HASHRATE_UNITS)[number];
  /** Percent of the 24-hour average as typed (70 by default). */
  percent: string;
  minWorkers: string;
  /** A worker group as typed; empty: the whole account. */
  group: string;
}

export const ALERT_KIND_TEXT: Record<AlertDraftKind, string> = {
  fixed: 'Hashrate below a fixed value',
  automatic: 'Hashrate below % of its 24 h average',
  workers: 'Online workers below a count',
};

/** The unit an algorithm's machines report their speed in (Gh/s for SCRYPT, Th/s for SHA256): the form's default. */
export function machineUnit(algorithm: AlgorithmKey): HashrateAlertDraft['unit'] {
  const exponent = algorithmByKey(algorithm)?.machineUnitExponent ?? 0;
  return HASHRATE_UNITS[exponent / 3] ?? 'H/s';
}

export function emptyAlertDraft(algorithm: AlgorithmKey): HashrateAlertDraft {
  return {
    algorithm,
    kind: 'automatic',
    hashrate: '',
    unit: machineUnit(algorithm),
    percent: String(Math.round(AUTOMATIC_THRESHOLD * 100)),
    minWorkers: '',
    group: '',
  };
}

/** A decimal as typed ("5", "2.5"), or null when it is not one. */
function decimalOf(text: string): Exact | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return null;
  return Exact.of(trimmed);
}

const wholeIn = (text: string, min: number, max: number) => {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return false;
  const n = Number(trimmed);
  return n >= min && n <= max;
};

/** Why the draft cannot be sent (the server's words for the same mistake), or null. */
export function hashrateAlertProblem(draft: HashrateAlertDraft): string | null {
  if (draft.kind === 'fixed') {
    const amount = decimalOf(draft.hashrate);
    if (amount === null || amount.n === 0n) return 'The threshold must be a hashrate in H/s';
  } else if (draft.kind === 'automatic') {
    if (!wholeIn(draft.percent, 10, 95)) return 'The percentage must be a whole number from 10 to 95';
  } else if (!wholeIn(draft.minWorkers, 1, 1_000_000)) {
    return 'The fewest workers must be a whole number from 1 to 1,000,000';
  }
  if (alertGroupOf(draft.group) === undefined) return `A group is at most ${MAX_ALERT_GROUP} characters`;
  return null;
}

/**
 * Body of POST user/hashrate_alerts/create: the algorithm, the kind and its one figure (a fixed hashrate in H/s,
 * exactly: 2.5 Th/s is 2500000000000), and the group (empty: the whole account).
 */
export function hashrateAlertForm(draft: HashrateAlertDraft): FormData {
  const fields: Record<string, string> = {
    algorithm: draft.algorithm,
    kind: draft.kind === 'workers' ? 'workers' : 'hashrate',
    group: draft.group.trim(),
  };
  if (draft.kind === 'fixed') {
    const amount = decimalOf(draft.hashrate) ?? Exact.ZERO;
    fields.threshold_hashrate = amount.shifted(3 * HASHRATE_UNITS.indexOf(draft.unit)).toString();
  } else if (draft.kind === 'automatic') {
    fields.threshold_percent = draft.percent.trim();
  } else {
    fields.min_workers = draft.minWorkers.trim();
  }
  return formOf(fields);
}

/** The account's worker groups, each once, sorted: the group field's suggestions. */
export function groupSuggestions(workerGroups: readonly (string | null)[]): string[] {
  const groups = new Set<string>();
  for (const group of workerGroups) if (group !== null) groups.add(group);
  return [...groups].sort((a, b) => a.localeCompare(b));
}
