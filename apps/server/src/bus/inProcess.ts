import type { FoundBlock, ShareBatch } from '@lodestone/domain';
import { foundBlocks, type MessageKind, type Reading, readMessage, shareBatches } from './messages.js';
import type { BusSubject, ConsumeOptions, InvalidMessage, ShareBus, Unsubscribe } from './types.js';

export type BusEvent =
  /** A handler threw; the same message is delivered again after `retryInMs`. */
  | { type: 'handler-failed'; subject: BusSubject; attempt: number; retryInMs: number; error: unknown }
  /** close() gave up on messages nobody could take (no consumer, or still failing at the deadline). */
  | { type: 'dropped'; subject: BusSubject; count: number }
  /** A message its schema refused, dropped; reported here when its consumer has no `onInvalid`. */
  | ({ type: 'invalid' } & InvalidMessage);

export interface InProcessBusOptions {
  /** Wait before the first redelivery of a message whose handler threw; doubles per attempt. Default 100 ms. */
  retryBackoffMs?: number;
  /** Longest wait between redeliveries. Default 5 s. */
  maxBackoffMs?: number;
  /** Messages a subject holds before publish refuses more (the consumer is stuck). Default 100,000. */
  maxQueued?: number;
  /** How long close() keeps delivering queued messages before it stops. Default 10 s. */
  drainTimeoutMs?: number;
  /** Failed deliveries and drops, for the caller to log and count; the bus itself never swallows them. */
  onEvent?: (event: BusEvent) => void;
}

export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
}

export class BusFullError extends Error {
  override readonly name = 'BusFullError';
}

/**
 * The share bus inside one process (`npm start`, tests). Each subject is a work queue with the
 * semantics of a JetStream work-queue stream and one durable consumer:
 *
 * - publish parses the message with its subject's contract schema and queues the result, a fresh
 *   copy of everything the schema covers, as if it had been serialized; it rejects after close()
 *   and when `maxQueued` messages are already waiting;
 * - a message the schema refused keeps its place in the queue and, when its turn comes, is reported
 *   (the consumer's `onInvalid`, else `onEvent`) and dropped, never handed to a handler — as a
 *   consumer in another process would see it;
 * - messages are delivered strictly in publish order, one at a time per subject; with several
 *   consumers of a subject each message goes to one of them, taking turns;
 * - a handler that throws gets the same message again after a back-off (100 ms, doubling, at most
 *   5 s) — at least once, never skipped: later messages wait behind it;
 * - messages published while nobody consumes wait for the first consumer;
 * - close() refuses new messages, keeps delivering what is queued for up to `drainTimeoutMs`, then
 *   stops, waits for a handler still running, and reports what it had to drop.
 */
export class InProcessBus implements ShareBus {
  readonly #batches: Subject<ShareBatch>;
  readonly #blocks: Subject<FoundBlock>;
  readonly #drainTimeoutMs: number;
  #closing: Promise<void> | undefined;

  constructor(options: InProcessBusOptions = {}) {
    const settings: SubjectSettings = {
      retryBackoffMs: options.retryBackoffMs ?? 100,
      maxBackoffMs: options.maxBackoffMs ?? 5000,
      maxQueued: options.maxQueued ?? 100_000,
      onEvent: options.onEvent ?? (() => {}),
    };
    this.#drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
    this.#batches = new Subject(shareBatches, settings);
    this.#blocks = new Subject(foundBlocks, settings);
  }

  publishShareBatch(batch: ShareBatch): Promise<void> {
    return this.#batches.publish(batch);
  }

  publishFoundBlock(block: FoundBlock): Promise<void> {
    return this.#blocks.publish(block);
  }

  async consumeShareBatches(
    handler: (batch: ShareBatch) => Promise<void>,
    options: ConsumeOptions = {},
  ): Promise<Unsubscribe> {
    return this.#batches.consume(handler, options);
  }

  async consumeFoundBlocks(
    handler: (block: FoundBlock) => Promise<void>,
    options: ConsumeOptions = {},
  ): Promise<Unsubscribe> {
    return this.#blocks.consume(handler, options);
  }

  /** Messages waiting (including one being delivered), per subject. For tests and health output. */
  pending(): Record<BusSubject, number> {
    return { 'share-batches': this.#batches.size, 'found-blocks': this.#blocks.size };
  }

  /** One process, no server to lose: connected until closed. */
  connected(): boolean {
    return this.#closing === undefined;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      const deadline = performance.now() + this.#drainTimeoutMs;
      await Promise.all([this.#batches.close(deadline), this.#blocks.close(deadline)]);
    })();
    return this.#closing;
  }
}

interface SubjectSettings {
  retryBackoffMs: number;
  maxBackoffMs: number;
  maxQueued: number;
  onEvent: (event: BusEvent) => void;
}

interface Consumer<T> {
  handler: (message: T) => Promise<void>;
  onInvalid: ((invalid: InvalidMessage) => void) | undefined;
}

/** One ordered work queue and its delivery loop. */
class Subject<T> {
  /** What was published, parsed (so copied) at publish time. */
  readonly #queue: Reading<T>[] = [];
  readonly #consumers: Consumer<T>[] = [];
  #turn = 0;
  #closed = false;
  #stopped = false;
  /** The running delivery loop, if any. */
  #loop: Promise<void> | undefined;
  /** Who is handling the head of the queue right now, and when they will be done. */
  #inFlight: { consumer: Consumer<T>; done: Promise<unknown> } | undefined;
  /** Wakes the loop early from a back-off or an idle wait. */
  #wake: (() => void) | undefined;

  readonly name: BusSubject;

  constructor(
    readonly kind: MessageKind<T>,
    readonly settings: SubjectSettings,
  ) {
    this.name = kind.subject;
  }

  get size(): number {
    return this.#queue.length;
  }

  publish(message: T): Promise<void> {
    if (this.#closed) return Promise.reject(new BusClosedError(`bus is closed: cannot publish to ${this.name}`));
    if (this.#queue.length >= this.settings.maxQueued) {
      return Promise.reject(new BusFullError(`${this.name}: ${this.#queue.length} messages already waiting`));
    }
    // zod's output shares nothing mutable with its input: it is the snapshot, no structuredClone needed.
    this.#queue.push(readMessage(this.kind, message));
    this.#kick();
    return Promise.resolve();
  }

  consume(handler: (message: T) => Promise<void>, options: ConsumeOptions): Unsubscribe {
    if (this.#closed) throw new BusClosedError(`bus is closed: cannot consume ${this.name}`);
    const consumer: Consumer<T> = { handler, onInvalid: options.onInvalid };
    this.#consumers.push(consumer);
    this.#kick();
    let unsubscribed: Promise<void> | undefined;
    return () => {
      unsubscribed ??= (async () => {
        const i = this.#consumers.indexOf(consumer);
        if (i >= 0) this.#consumers.splice(i, 1);
        // A message this consumer is handling stays at the head of the queue until it succeeds, so
        // nothing is lost; but the caller may tear down what the handler uses once we return.
        const inFlight = this.#inFlight;
        if (inFlight?.consumer === consumer) await inFlight.done;
      })();
      return unsubscribed;
    };
  }

  async close(deadline: number): Promise<void> {
    this.#closed = true;
    while (this.#queue.length > 0 && this.#consumers.length > 0 && performance.now() < deadline) {
      this.#kick();
      await new Promise((resolve) => setTimeout(resolve, Math.min(20, Math.max(0, deadline - performance.now()))));
    }
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    if (this.#queue.length > 0) {
      this.settings.onEvent({ type: 'dropped', subject: this.name, count: this.#queue.length });
      this.#queue.length = 0;
    }
  }

  #kick(): void {
    if (this.#loop || this.#stopped || this.#queue.length === 0 || this.#consumers.length === 0) return;
    this.#loop = this.#deliver().finally(() => {
      this.#loop = undefined;
      // Something may have arrived between the loop's last check and now.
      this.#kick();
    });
  }

  async #deliver(): Promise<void> {
    let attempt = 0;
    while (!this.#stopped && this.#queue.length > 0 && this.#consumers.length > 0) {
      const consumer = this.#consumers[this.#turn++ % this.#consumers.length] as Consumer<T>;
      const reading = this.#queue[0] as Reading<T>;
      if (!reading.ok) {
        this.#queue.shift();
        attempt = 0;
        this.#reportInvalid(consumer, reading.invalid);
        continue;
      }
      const message = reading.message;
      const done = (async () => consumer.handler(message))();
      this.#inFlight = { consumer, done: done.catch(() => {}) };
      try {
        await done;
        this.#queue.shift();
        attempt = 0;
      } catch (error) {
        attempt++;
        const retryInMs = Math.min(this.settings.retryBackoffMs * 2 ** (attempt - 1), this.settings.maxBackoffMs);
        this.settings.onEvent({ type: 'handler-failed', subject: this.name, attempt, retryInMs, error });
        await this.#sleep(retryInMs);
      } finally {
        this.#inFlight = undefined;
      }
    }
  }

  #reportInvalid(consumer: Consumer<T>, invalid: InvalidMessage): void {
    if (consumer.onInvalid) consumer.onInvalid(invalid);
    else this.settings.onEvent({ type: 'invalid', ...invalid });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        if (this.#wake === finish) this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.#wake = finish;
    });
  }
}
