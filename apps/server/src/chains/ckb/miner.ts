import { POW } from '@lodestone/pow';
import type { MinerDialect, MinerSearch } from '../../stratum/client/minerDialect.js';

/** CKB's nonce: 16 bytes (ckb-gominer README: "by protocol CKB's nonce is 16 bytes long"). */
const NONCE_BYTES = 16;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export interface CkbMinerJob {
  jobId: string;
  powHash: string;
  height: number;
  parentHash: string;
  clean: boolean;
}

export interface CkbMinerOptions {
  /** Subscribe with `[agent, null, host, port]` instead of `[agent, null]`. */
  fourParams?: { host: string; port: number };
}

/**
 * A CKB miner as `ckbminer-v1.0.0` behaves, after leifjacky/ckb-gominer-demo (miner.go and its README,
 * the BTC.com / ViaBTC form of the protocol): it subscribes with `[agent, null]` (or the 4-parameter
 * form some miners send, `[agent, null, host, port]`), reads `[_, nonce1, nonce2Size]`, takes each
 * `mining.set_target` at once, starts every `mining.notify` job with its nonce2 counter at 0 (nonce2 is
 * the counter's decimal digits, as ckb-gominer writes it), and hashes Eaglesong(pow_hash ‖ nonce1 ‖
 * nonce2) read as a big-endian number against the target.
 */
export class CkbMiner implements MinerDialect {
  nonce1 = '';
  nonce2Size = 0;
  target: bigint | undefined;
  job: CkbMinerJob | undefined;
  /** Every target received, in order (tests check when each came). */
  readonly targets: bigint[] = [];
  private message = new Uint8Array(32 + NONCE_BYTES);
  private counter = 0;

  constructor(private readonly options: CkbMinerOptions = {}) {}

  subscribeParams(agent: string): unknown[] {
    const four = this.options.fourParams;
    return four ? [agent, null, four.host, String(four.port)] : [agent, null];
  }

  subscribed(result: unknown): void {
    if (!Array.isArray(result) || result.length < 3) throw new Error('ckb subscribe: expected [_, nonce1, nonce2Size]');
    const [, nonce1, size] = result;
    if (typeof nonce1 !== 'string' || !HEX.test(nonce1)) throw new Error('ckb subscribe: nonce1 is not hex');
    if (typeof size !== 'number' || !Number.isInteger(size) || nonce1.length / 2 + size !== NONCE_BYTES) {
      throw new Error(`ckb subscribe: nonce1 (${nonce1.length / 2} bytes) + nonce2 (${size}) is not 16 bytes`);
    }
    this.nonce1 = nonce1.toLowerCase();
    this.nonce2Size = size;
  }

  notification(method: string, params: readonly unknown[], _line?: string): void {
    if (method === 'mining.set_target') {
      const [hex] = params;
      if (typeof hex !== 'string' || !/^[0-9a-fA-F]{1,64}$/.test(hex)) throw new Error('ckb set_target: not hex');
      this.target = BigInt(`0x${hex}`);
      this.targets.push(this.target);
    } else if (method === 'mining.notify') {
      const [jobId, powHash, height, parentHash, clean] = params;
      if (typeof jobId !== 'string') throw new Error('ckb notify: job id is not a string');
      if (typeof powHash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(powHash)) {
        throw new Error('ckb notify: pow_hash is not 32 bytes of hex');
      }
      if (typeof height !== 'number' || typeof parentHash !== 'string' || typeof clean !== 'boolean') {
        throw new Error('ckb notify: expected [jobId, pow_hash, height, parent_hash, clean]');
      }
      this.job = { jobId, powHash: powHash.toLowerCase(), height, parentHash: parentHash.toLowerCase(), clean };
      this.message = Buffer.from(powHash + this.nonce1 + '00'.repeat(this.nonce2Size), 'hex');
      this.counter = 0;
    }
  }

  get ready(): boolean {
    return this.job !== undefined && this.target !== undefined && this.nonce1 !== '';
  }

  get jobId(): string | undefined {
    return this.job?.jobId;
  }

  get difficulty(): number | undefined {
    return this.target === undefined ? undefined : POW.eaglesong.difficultyForTarget(this.target);
  }

  /**
   * nonce2 for a counter value as ckb-gominer writes it (`FillZeroHashLen(nonce.Text(10), size*2)`): the
   * counter's decimal digits, zero-padded on the left, sent and hashed as if they were hex.
   */
  nonce2(counter: number): string {
    return counter.toString(10).padStart(this.nonce2Size * 2, '0');
  }

  search(maxHashes: number, miss = false): MinerSearch {
    const { job, target } = this;
    if (!job || target === undefined) throw new Error('ckb miner: no job or target yet');
    const message = this.message;
    const nibbles = this.nonce2Size * 2;
    const start = message.length - this.nonce2Size;
    for (let i = 0; i < maxHashes; i++) {
      const counter = this.counter++;
      // The decimal digits of the counter, one per hex nibble, right-aligned in nonce2.
      for (let p = nibbles - 1, rest = counter; p >= 0; p -= 2) {
        const low = rest % 10;
        rest = Math.floor(rest / 10);
        const high = rest % 10;
        rest = Math.floor(rest / 10);
        message[start + (p >> 1)] = (high << 4) | low;
      }
      const hash = POW.eaglesong.hash(message);
      const hashValue = BigInt(`0x${Buffer.from(hash).toString('hex')}`);
      if (hashValue <= target !== miss) {
        return { hashes: i + 1, share: { jobId: job.jobId, params: [this.nonce2(counter)], hashValue } };
      }
    }
    return { hashes: maxHashes, share: undefined };
  }
}
