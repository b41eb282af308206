import { findShare, nextExtranonce2 } from '../../stratum/client/miner.js';
import type { MinerDialect, MinerSearch } from '../../stratum/client/minerDialect.js';
import { type NotifyJob, parseNotify } from '../../stratum/client/work.js';
import { type PowFunctions, powFor, type StratumAlgorithm } from '../../stratum/pow.js';

const NONCES = 2 ** 32;

/**
 * The miner's side of the bitcoin-family dialect (SHA256, SCRYPT, X11), as cpuminer and the ASIC
 * firmware speak it: subscribe answers `[subscriptions, extranonce1, extranonce2_size]`;
 * mining.set_difficulty takes effect with the next mining.notify (cpuminer applies it when it
 * rebuilds work, so shares of the job in hand stay at the difficulty they were issued with);
 * mining.set_extranonce (NiceHash's subscription) replaces the nonce space. The search rolls the
 * 32-bit header nonce, then a fresh extranonce2, over the current job at its own ntime.
 */
export class BitcoinMiner implements MinerDialect {
  private readonly pow: PowFunctions;
  private extranonce1: string | undefined;
  private extranonce2Size = 0;
  private job: NotifyJob | undefined;
  private active: number | undefined;
  private announced: number | undefined;
  /** Where the search over the current job stands. */
  private extranonce2 = '';
  private nonce = 0;

  constructor(readonly algorithm: StratumAlgorithm) {
    this.pow = powFor(algorithm);
  }

  subscribeParams(agent: string): unknown[] {
    return [agent];
  }

  subscribed(result: unknown): void {
    if (!Array.isArray(result)) throw new Error('mining.subscribe: the answer is not a list');
    const [, extranonce1, size] = result;
    if (typeof extranonce1 !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(extranonce1)) {
      throw new Error('mining.subscribe: extranonce1 is not hex');
    }
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > 16) {
      throw new Error('mining.subscribe: extranonce2 size is not 1–16 bytes');
    }
    this.extranonce1 = extranonce1;
    this.extranonce2Size = size;
  }

  notification(method: string, params: readonly unknown[]): void {
    if (method === 'mining.set_difficulty') {
      const [difficulty] = params;
      if (typeof difficulty !== 'number' || !(difficulty > 0) || !Number.isFinite(difficulty)) {
        throw new Error('mining.set_difficulty: not a positive number');
      }
      this.announced = difficulty;
    } else if (method === 'mining.set_extranonce') {
      const [extranonce1, size] = params;
      this.subscribed([null, extranonce1, size]);
      this.restart();
    } else if (method === 'mining.notify') {
      this.job = parseNotify([...params]);
      this.active = this.announced;
      this.restart();
    }
  }

  get ready(): boolean {
    return this.extranonce1 !== undefined && this.job !== undefined && this.active !== undefined;
  }

  get jobId(): string | undefined {
    return this.job?.jobId;
  }

  get difficulty(): number | undefined {
    return this.active;
  }

  search(maxHashes: number, miss = false): MinerSearch {
    const { job, extranonce1, active } = this;
    if (!job || extranonce1 === undefined || active === undefined) return { hashes: 0, share: undefined };
    let hashes = 0;
    while (hashes < maxHashes) {
      const budget = Math.min(maxHashes - hashes, NONCES - this.nonce);
      const share = findShare(
        { job, extranonce1, extranonce2Size: this.extranonce2Size, difficulty: active },
        this.pow,
        { extranonce2: this.extranonce2, startNonce: this.nonce, maxHashes: budget, miss },
      );
      const tried = share?.hashes ?? budget;
      hashes += tried;
      this.nonce += tried;
      if (this.nonce >= NONCES) this.restart();
      if (share) {
        return {
          hashes,
          share: {
            jobId: job.jobId,
            params: [share.extranonce2, share.ntime, share.nonce],
            hashValue: share.hashValue,
          },
        };
      }
    }
    return { hashes, share: undefined };
  }

  /** A fresh extranonce2 (process-wide counter, so no two searches repeat a header), nonces from 0. */
  private restart(): void {
    this.extranonce2 = nextExtranonce2(this.extranonce2Size);
    this.nonce = 0;
  }
}
