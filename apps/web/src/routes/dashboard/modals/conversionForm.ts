import type { ConversionConfigResponse } from '@lodestone/contract';
import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { MESSAGES } from '../messages';

/**
 * The Conversion Settings form (docs/money.md, Conversion settings): one list of {ticker, proportion} per algorithm, or
 * one shared list when 'select all algorithms' is on. Turning it on copies the shared list into every
 * algorithm's list. Proportions are 0–100; saving needs at least one coin above 0%.
 */
export interface ConversionEntry {
  ticker: string;
  proportion: number;
}

export interface ConversionForm {
  all: boolean;
  shared: ConversionEntry[];
  lists: Record<AlgorithmKey, ConversionEntry[]>;
}

const copy = (list: readonly ConversionEntry[]) => list.map((e) => ({ ticker: e.ticker, proportion: e.proportion }));

export function formFromConversionConfig(config: ConversionConfigResponse): ConversionForm {
  const lists = Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, copy(config[k])])) as Record<
    AlgorithmKey,
    ConversionEntry[]
  >;
  return { all: config.all_algorithms_setting, shared: copy(config.all_algorithms), lists };
}

/**
 * Switches 'select all algorithms'. On: the shared list is copied into every algorithm's list.
 * The server keeps the shared list empty until a miner first fills it; an empty shared list then
 * starts from the list of the algorithm being viewed, so turning the switch on never wipes a working
 * setup. Off: every algorithm keeps the list it has.
 */
export function setAllAlgorithms(form: ConversionForm, on: boolean, viewing: AlgorithmKey): ConversionForm {
  if (!on) return { ...form, all: false };
  const shared = form.shared.length > 0 ? copy(form.shared) : copy(form.lists[viewing]);
  const lists = Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, copy(shared)])) as Record<
    AlgorithmKey,
    ConversionEntry[]
  >;
  return { all: true, shared, lists };
}

/** The list being edited: the shared one, or the viewed algorithm's. */
export function editedList(form: ConversionForm, viewing: AlgorithmKey): ConversionEntry[] {
  return form.all ? form.shared : form.lists[viewing];
}

/** Replaces the edited list; with the switch on, every algorithm's copy follows the shared list. */
export function withEditedList(form: ConversionForm, viewing: AlgorithmKey, list: ConversionEntry[]): ConversionForm {
  if (!form.all) return { ...form, lists: { ...form.lists, [viewing]: list } };
  const lists = Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, copy(list)])) as Record<
    AlgorithmKey,
    ConversionEntry[]
  >;
  return { ...form, shared: list, lists };
}

export function clampProportion(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** A coin added to a list takes what is left up to 100% (the whole 100 for the first coin). */
export function addConversionCoin(list: readonly ConversionEntry[], ticker: string): ConversionEntry[] {
  if (list.some((e) => e.ticker === ticker)) return [...list];
  const left = Math.max(0, 100 - conversionTotal(list));
  return [...list, { ticker, proportion: left }];
}

export function conversionTotal(list: readonly ConversionEntry[]): number {
  return Math.round(list.reduce((sum, e) => sum + e.proportion, 0) * 10_000) / 10_000;
}

export type ConversionPayload =
  | { ok: true; allAlgorithms: boolean; settings: ConversionEntry[] | Record<AlgorithmKey, ConversionEntry[]> }
  | { ok: false; error: string };

/**
 * What POST conversion_config/update receives: with the switch on, the shared list; otherwise every
 * algorithm's list. Each list sent needs a coin above 0%; sums are the server's rule.
 */
export function conversionPayload(form: ConversionForm): ConversionPayload {
  const lists = form.all ? [form.shared] : ALGORITHM_KEYS.map((k) => form.lists[k]);
  if (lists.some((list) => !list.some((e) => e.proportion > 0))) return { ok: false, error: MESSAGES.selectOneCoin };
  return form.all
    ? { ok: true, allAlgorithms: true, settings: copy(form.shared) }
    : { ok: true, allAlgorithms: false, settings: { ...form.lists } };
}
