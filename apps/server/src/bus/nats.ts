import type { FoundBlock, ShareBatch } from '@lodestone/domain';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { foundBlocks, type MessageKind, readJson, shareBatches } from './messages.js';
import type { ConsumeOptions, InvalidMessage, ShareBus, Unsubscribe } from './types.js';

/** How long one pull request for the next message lives (see #consume). */
const PULL_EXPIRES_MS = 10_000;

export type NatsBusEvent =
  | { type: 'handler-failed'; subject: string; id: string; attempt: number; error: unknown }
  /** The connection to the NATS server was lost; it is tried again, without end, until it is back. */
  | { type: 'disconnected'; server: string }
  | { type: 'reconnected'; server: string; outageMs: number }
  /** A message that is not JSON or that its schema refused, terminated; reported here when its consumer has no `onInvalid`. */
  | ({ type: 'invalid' } & InvalidMessage);

export interface NatsBusOptions {
  /** `nats://host:4222` (several comma-separated). */
  servers: string;
  /** Names streams, subjects and consumers, so several pools (or tests) can share one server. */
  prefix?: string;
  /** This process's name, shown in the NATS server's connection list. */
  name?: string;
  /** How long JetStream remembers message ids to drop duplicate publishes (default 10 minutes). */
  duplicateWindowMs?: number;
  /** Wait before a failed message is delivered again; doubles per attempt up to 30 s. Default 500 ms. */
  retryBackoffMs?: number;
  /** Wait between two attempts to reach a lost server (default 2 s, with jitter); attempts never stop. */
  reconnectWaitMs?: number;
  onEvent?: (event: NatsBusEvent) => void;
}

const NANOS_PER_MS = 1_000_000;

/** When the connection to the server was lost (performance.now()); undefined while connected. */
interface ConnectionLink {
  lostAt: number | undefined;
}

interface Subject<T> {
  kind: MessageKind<T>;
  stream: string;
  subject: string;
  durable: string;
  id(message: T): string;
}

/**
 * The share bus across processes: one JetStream work-queue stream per message kind, stored on disk
 * by the NATS server. Stratum nodes publish with the message's id as `Nats-Msg-Id`, so a publish
 * retried after a lost acknowledgement is stored once. The jobs role consumes through one durable
 * consumer per kind with explicit acks and at most one message in flight, so batches are applied in
 * order; a handler that throws gets the message again after a back-off (never skipped), and a
 * message that is not JSON or that its contract schema refuses is terminated and reported rather
 * than blocking the queue.
 */
export class NatsBus implements ShareBus {
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #batches: Subject<ShareBatch>;
  readonly #blocks: Subject<FoundBlock>;
  readonly #options: NatsBusOptions;
  readonly #running = new Set<{ messages: ConsumerMessages; done: Promise<void> }>();
  /** The connection's state as its status events left it (#watch). */
  readonly #link: ConnectionLink;

  private constructor(nc: NatsConnection, jsm: JetStreamManager, options: NatsBusOptions, link: ConnectionLink) {
    this.#link = link;
    const prefix = options.prefix ?? 'LODESTONE';
    const lower = prefix.toLowerCase();
    this.#nc = nc;
    this.#jsm = jsm;
    this.#js = jetstream(nc);
    this.#options = options;
    this.#batches = {
      kind: shareBatches,
      stream: `${prefix}_SHARE_BATCHES`,
      subject: `${lower}.${shareBatches.subject}`,
      durable: 'accounting',
      id: (b) => b.id,
    };
    this.#blocks = {
      kind: foundBlocks,
      stream: `${prefix}_FOUND_BLOCKS`,
      subject: `${lower}.${foundBlocks.subject}`,
      durable: 'accounting',
      id: (b) => b.id,
    };
  }

  /** Connects and makes sure both streams exist (creating them is idempotent). */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: options.servers.split(','),
      name: options.name ?? 'lodestone',
      // The client's default gives up after 10 attempts (about 20 s) and closes for good, leaving the
      // process up but deaf. A pool waits out any outage: shares are answered meanwhile and their
      // batches wait in the journal (stratum) or on the server (jobs).
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.reconnectWaitMs ?? 2_000,
    });
    const link = NatsBus.#watch(nc, options.onEvent ?? (() => {}));
    try {
      const jsm = await jetstreamManager(nc);
      const bus = new NatsBus(nc, jsm, options, link);
      for (const s of [bus.#batches, bus.#blocks]) {
        const config = {
          name: s.stream,
          subjects: [s.subject],
          retention: RetentionPolicy.Workqueue,
          storage: StorageType.File,
          duplicate_window: (options.duplicateWindowMs ?? 600_000) * NANOS_PER_MS,
        };
        try {
          await jsm.streams.info(s.stream);
          await jsm.streams.update(s.stream, config);
        } catch {
          await jsm.streams.add(config);
        }
      }
      return bus;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  /** Reports the connection's losses and returns (once per outage) as bus events, and keeps its state. */
  static #watch(nc: NatsConnection, onEvent: (event: NatsBusEvent) => void): ConnectionLink {
    const link: ConnectionLink = { lostAt: undefined };
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect' && link.lostAt === undefined) {
          link.lostAt = performance.now();
          onEvent({ type: 'disconnected', server: status.server });
        } else if (status.type === 'reconnect' && link.lostAt !== undefined) {
          const outageMs = Math.round(performance.now() - link.lostAt);
          link.lostAt = undefined;
          onEvent({ type: 'reconnected', server: status.server, outageMs });
        }
      }
    })();
    return link;
  }

  publishShareBatch(batch: ShareBatch): Promise<void> {
    return this.#publish(this.#batches, batch);
  }

  publishFoundBlock(block: FoundBlock): Promise<void> {
    return this.#publish(this.#blocks, block);
  }

  consumeShareBatches(handler: (batch: ShareBatch) => Promise<void>, options?: ConsumeOptions): Promise<Unsubscribe> {
    return this.#consume(this.#batches, handler, options);
  }

  consumeFoundBlocks(handler: (block: FoundBlock) => Promise<void>, options?: ConsumeOptions): Promise<Unsubscribe> {
    return this.#consume(this.#blocks, handler, options);
  }

  connected(): boolean {
    return this.#link.lostAt === undefined && !this.#nc.isClosed();
  }

  /** Stops consuming (waiting for a handler that is running) and closes the connection after flushing publishes. */
  async close(): Promise<void> {
    await Promise.all([...this.#running].map((r) => this.#stop(r)));
    if (!this.#nc.isClosed()) await this.#nc.drain();
  }

  /** Removes this bus's streams and everything in them: for tests and for decommissioning a pool. */
  async deleteStreams(): Promise<void> {
    for (const s of [this.#batches, this.#blocks]) await this.#jsm.streams.delete(s.stream).catch(() => false);
  }

  async #publish<T>(subject: Subject<T>, message: T): Promise<void> {
    await this.#js.publish(subject.subject, JSON.stringify(message), { msgID: subject.id(message) });
  }

  async #consume<T>(
    subject: Subject<T>,
    handler: (message: T) => Promise<void>,
    options: ConsumeOptions = {},
  ): Promise<Unsubscribe> {
    if (options.takeOver) {
      // On a work-queue stream acknowledged messages are gone, so a new consumer from the start holds
      // exactly what is unacknowledged, including what the old consumer had handed out.
      await this.#jsm.consumers.delete(subject.stream, subject.durable).catch(() => false);
    }
    try {
      await this.#jsm.consumers.info(subject.stream, subject.durable);
    } catch {
      await this.#jsm.consumers.add(subject.stream, {
        durable_name: subject.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        // One message at a time: batches are applied in the order they were published.
        max_ack_pending: 1,
        ack_wait: 60_000 * NANOS_PER_MS,
      });
    }
    const consumer = await this.#js.consumers.get(subject.stream, subject.durable);
    // A pull lives 10 s instead of the client's 30: after a NATS restart the client checks its consumer
    // again and, while JetStream is still restoring, waits one pull's life before the next check, so
    // batches stalled up to 30 s after every restart (seen in CI, 2026-11-30). An idle pull every 10 s
    // costs the server nothing worth counting.
    const messages = await consumer.consume({ max_messages: 1, expires: PULL_EXPIRES_MS });
    const backoff = this.#options.retryBackoffMs ?? 500;
    const onEvent = this.#options.onEvent ?? (() => {});
    const onInvalid = options.onInvalid ?? ((invalid: InvalidMessage) => onEvent({ type: 'invalid', ...invalid }));
    const done = (async () => {
      for await (const m of messages) {
        const reading = readJson(subject.kind, m.string());
        if (!reading.ok) {
          // Terminated, not nak'ed: it can never be handled, and JetStream must not deliver it again.
          m.term();
          onInvalid(reading.invalid);
          continue;
        }
        const parsed = reading.message;
        try {
          await handler(parsed);
          await m.ackAck();
        } catch (error) {
          const attempt = m.info.deliveryCount;
          onEvent({ type: 'handler-failed', subject: subject.subject, id: subject.id(parsed), attempt, error });
          m.nak(Math.min(30_000, backoff * 2 ** (attempt - 1)));
        }
      }
    })();
    const running = { messages, done };
    this.#running.add(running);
    return () => this.#stop(running);
  }

  async #stop(running: { messages: ConsumerMessages; done: Promise<void> }): Promise<void> {
    if (!this.#running.delete(running)) return;
    running.messages.stop();
    await running.done;
  }
}
