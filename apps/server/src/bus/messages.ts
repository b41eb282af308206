import { foundBlockMessage, shareBatchMessage } from '@lodestone/contract';
import type { FoundBlock, ShareBatch } from '@lodestone/domain';
import type { z } from 'zod';
import type { BusSubject, InvalidMessage } from './types.js';

/** One kind of bus message: its subject and the contract schema every delivery is parsed with. */
export interface MessageKind<T> {
  subject: BusSubject;
  schema: z.ZodType<T>;
}

export const shareBatches: MessageKind<ShareBatch> = { subject: 'share-batches', schema: shareBatchMessage };
export const foundBlocks: MessageKind<FoundBlock> = { subject: 'found-blocks', schema: foundBlockMessage };

/** A delivered message, parsed: what the handler gets, or why it can never be handled. */
export type Reading<T> = { ok: true; message: T } | { ok: false; invalid: InvalidMessage };

/** Parses a delivered message once, on the consumer's side, whole (not per worker). */
export function readMessage<T>(kind: MessageKind<T>, raw: unknown): Reading<T> {
  const result = kind.schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  return { ok: false, invalid: { subject: kind.subject, id: idOf(raw), error: result.error } };
}

/** Reads a JetStream payload: JSON, then the schema. */
export function readJson<T>(kind: MessageKind<T>, text: string): Reading<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const invalid = error instanceof Error ? error : new Error(String(error));
    return { ok: false, invalid: { subject: kind.subject, id: undefined, error: invalid } };
  }
  return readMessage(kind, raw);
}

function idOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return undefined;
  return typeof raw.id === 'string' ? raw.id : undefined;
}
