import type { FoundBlock, ShareBatch } from '@lodestone/domain';

export type Unsubscribe = () => Promise<void>;

/**
 * How stratum nodes hand work results to the jobs role. The in-process implementation serves
 * `npm start`; the NATS JetStream one (durable streams, explicit acks) serves separate processes.
 * Delivery is at least once: a handler may see a message again after a crash, so consumers are
 * idempotent (batch and block ids are unique). A handler that throws leaves the message unacked,
 * to be delivered again.
 */
export interface ShareBus {
  publishShareBatch(batch: ShareBatch): Promise<void>;
  publishFoundBlock(block: FoundBlock): Promise<void>;
  consumeShareBatches(handler: (batch: ShareBatch) => Promise<void>): Promise<Unsubscribe>;
  consumeFoundBlocks(handler: (block: FoundBlock) => Promise<void>): Promise<Unsubscribe>;
  close(): Promise<void>;
}
