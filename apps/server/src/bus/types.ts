import type { FoundBlock, ShareBatch } from '@lodestone/domain';

export type Unsubscribe = () => Promise<void>;

/** The bus's two message kinds; each has its schema in @lodestone/contract (bus.ts). */
export type BusSubject = 'share-batches' | 'found-blocks';

/** A message that is not what its subject carries (unreadable, or refused by its schema). */
export interface InvalidMessage {
  subject: BusSubject;
  /** The message's `id`, when it has one that is text: what to look for in the publisher's logs. */
  id: string | undefined;
  /** The JSON or schema error: what is wrong with it. */
  error: Error;
}

export interface ConsumeOptions {
  /**
   * Told of each invalid message instead of the bus's own `onEvent`. The message is dropped
   * (acknowledged, or terminated on JetStream) either way: it can never be handled, and delivering
   * it again would hold up every message behind it.
   */
  onInvalid?: (invalid: InvalidMessage) => void;
  /**
   * This consumer replaces any other of its kind: what was handed to another process and not yet
   * acknowledged is delivered again now, not after its acknowledgement deadline. For a jobs process
   * that has just taken the lease from a frozen one. (One process: nothing to take over.)
   */
  takeOver?: boolean;
}

/**
 * How stratum nodes hand work results to the jobs role. The in-process implementation serves
 * `npm start`; the NATS JetStream one (durable streams, explicit acks) serves separate processes.
 * Both parse each message with its contract schema before a handler sees it, so handlers receive
 * typed, validated messages; an invalid one is reported (`ConsumeOptions.onInvalid`) and dropped.
 * Delivery is at least once: a handler may see a message again after a crash, so consumers are
 * idempotent (batch and block ids are unique). A handler that throws leaves the message unacked,
 * to be delivered again.
 */
export interface ShareBus {
  publishShareBatch(batch: ShareBatch): Promise<void>;
  publishFoundBlock(block: FoundBlock): Promise<void>;
  consumeShareBatches(handler: (batch: ShareBatch) => Promise<void>, options?: ConsumeOptions): Promise<Unsubscribe>;
  consumeFoundBlocks(handler: (block: FoundBlock) => Promise<void>, options?: ConsumeOptions): Promise<Unsubscribe>;
  /** False while the connection to the bus's server is lost (health and metrics report it). */
  connected(): boolean;
  close(): Promise<void>;
}
