import type { WorkJob, WorkSource } from '@lodestone/chain';
import type { Extranonce1, ExtranonceAllocator } from '../extranonce.js';
import type { Login } from '../login.js';
import type { PowFunctions } from '../pow.js';
import { StratumError } from '../protocol.js';
import type { DialectContext, MethodOutcome } from './dialect.js';

/** What mining.subscribe answers when every nonce prefix of the server is taken. */
export const NO_NONCE_SPACE: MethodOutcome = { error: 'Server full: no nonce space left', code: StratumError.Other };

/**
 * One connection's share of a server's nonce space (extranonce1, nonce1, or Kaspa's extranonce): taken
 * on the first mining.subscribe, the same on every later one, given back when the connection ends.
 */
export class SessionNonce {
  private held: Extranonce1 | undefined;

  constructor(private readonly space: ExtranonceAllocator) {}

  /** The connection's prefix; undefined before subscribe. */
  get value(): Extranonce1 | undefined {
    return this.held;
  }

  /** The prefix of a subscribed connection (the session checks shares only after subscribe). */
  get subscribed(): Extranonce1 {
    if (!this.held) throw new Error('share checked before mining.subscribe');
    return this.held;
  }

  /**
   * The connection's prefix, taken now if it has none. When the space is full the connection is closed
   * (a miner without its own nonces would only hash what other sessions hash) and undefined returned:
   * answer NO_NONCE_SPACE.
   */
  claim(context: DialectContext): Extranonce1 | undefined {
    if (this.held) return this.held;
    if (this.space.full) {
      context.close('nonce space exhausted', false);
      return undefined;
    }
    this.held = this.space.allocate();
    return this.held;
  }

  release(): void {
    if (this.held) this.space.release(this.held);
    this.held = undefined;
  }
}

/**
 * What every dialect's connection holds: its context, the job source it submits blocks to, the
 * algorithm's hash functions and its nonce prefix — subscribed once it holds one, given back on close.
 */
export abstract class PrefixedConnection<J extends WorkJob, S> {
  constructor(
    protected readonly context: DialectContext,
    protected readonly source: WorkSource<J, S>,
    protected readonly pow: PowFunctions,
    protected readonly prefix: SessionNonce,
  ) {}

  get subscribed(): boolean {
    return this.prefix.value !== undefined;
  }

  release(): void {
    this.prefix.release();
  }

  /** Most dialects have nothing to do when a worker authorizes. */
  authorized(_login: Login): void {}

  /** Vardiff's difficulty as it is, unless the dialect's miners take only some values. */
  shapeDifficulty(difficulty: number): number {
    return difficulty;
  }

  /** Job ids in hex, as the bitcoin family and CKB write them. */
  jobId(id: number): string {
    return id.toString(16);
  }

  parseJobId(text: string): number {
    return /^[0-9a-fA-F]{1,8}$/.test(text) ? Number.parseInt(text, 16) : 0;
  }
}
