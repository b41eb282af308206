/*
 * Share accounting, the jobs role's consumer of the share bus. Its parts (accounting/):
 * - apply.ts    one share batch into worker stats, in one transaction, at most once in effect
 * - value.ts    the PPS value of a batch, credited in that same transaction or kept pending
 * - blocks.ts   found blocks recorded once
 * - consume.ts  the bus subscriptions that feed them
 * Messages are validated by the bus (contract schemas in @lodestone/contract, bus.ts), not here.
 */
export { applyShareBatch, batchMinute } from './accounting/apply.js';
export { recordFoundBlock } from './accounting/blocks.js';
export { startShareConsumers } from './accounting/consume.js';
export type { CreditSettings } from './accounting/value.js';
