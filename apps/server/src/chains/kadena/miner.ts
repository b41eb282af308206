/**
 * A Kadena stratum miner, as the ASICs and kdaminer speak to chainweb pools (kadena-io/chainweb-mining-
 * client src/Worker/POW/Stratum/Protocol.hs, the recorded pool sessions in Server.hs, and the BM-K1 note
 * there): subscribe `["agent", null]` (BM-K1: `["agent"]`), read `[null, nonce1, nonce2Size]`, take
 * `mining.set_target` (64-hex big-endian) for the jobs notified after it, and `mining.notify
 * [jobId, header, clean]` with the 286-byte work header. A share is a nonce2 such that the Blake2s-256
 * hash of the header with nonce = nonce2 · 2^(8·len(nonce1)) + nonce1 written little-endian at offset
 * 278, read as a little-endian integer, is at or below the target. It is submitted as
 * `[worker, jobId, nonce2]`, nonce2 an integer in hex without leading zeros unless `padNonce2`.
 */
import { hash } from 'node:crypto';
import { POW } from '@lodestone/pow';
import type { MinerDialect, MinerSearch } from '../../stratum/client/minerDialect.js';

const WORK_LENGTH = 286;
const NONCE_OFFSET = 278;

export interface KadenaMinerOptions {
  /** Subscribe with `[agent]` only, as the iBeLink BM-K1 does (default: `[agent, null]`, as kdaminer). */
  omitSubscribeNull?: boolean;
  /** Write nonce2 zero-padded to its full width ("0000000001a3"), as some firmware does. */
  padNonce2?: boolean;
  /** First nonce2 of each job (default 0). */
  startNonce2?: bigint;
}

interface Job {
  id: string;
  header: Buffer;
  target: bigint;
  nextNonce2: bigint;
}

function littleEndian(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
}

function intHex(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{1,64}$/.test(value)) throw new Error(`${what} is not integer hex`);
  return BigInt(`0x${value}`);
}

export class KadenaMiner implements MinerDialect {
  /** The session's nonce1 (low bytes of every nonce) and its size. */
  nonce1: bigint | undefined;
  nonce1Size = 0;
  nonce2Size = 0;
  /** The target of jobs notified from now on. */
  target: bigint | undefined;
  private job: Job | undefined;

  constructor(private readonly options: KadenaMinerOptions = {}) {}

  subscribeParams(agent: string): unknown[] {
    return this.options.omitSubscribeNull ? [agent] : [agent, null];
  }

  subscribed(result: unknown): void {
    if (!Array.isArray(result) || result.length !== 3 || result[0] !== null) {
      throw new Error(`not a Kadena subscribe answer: ${JSON.stringify(result)}`);
    }
    const size = result[2];
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 8) {
      throw new Error(`nonce2 size ${JSON.stringify(size)} is not 0-8`);
    }
    const nonce1 = intHex(result[1], 'nonce1');
    if (nonce1 >= 1n << BigInt(8 * (8 - size))) throw new Error(`nonce1 ${result[1]} does not fit ${8 - size} bytes`);
    this.nonce1 = nonce1;
    this.nonce1Size = 8 - size;
    this.nonce2Size = size;
  }

  notification(method: string, params: readonly unknown[]): void {
    if (method === 'mining.set_target') {
      const [hex] = params;
      if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) return;
      const target = BigInt(`0x${hex}`);
      if (target > 0n) this.target = target;
    } else if (method === 'mining.notify') {
      const [id, header] = params;
      if (typeof id !== 'string' || typeof header !== 'string' || !/^[0-9a-fA-F]+$/.test(header)) return;
      const bytes = Buffer.from(header, 'hex');
      if (bytes.length !== WORK_LENGTH || this.target === undefined) return;
      this.job = { id, header: bytes, target: this.target, nextNonce2: this.options.startNonce2 ?? 0n };
    }
  }

  get ready(): boolean {
    return this.job !== undefined && this.nonce1 !== undefined;
  }

  get jobId(): string | undefined {
    return this.job?.id;
  }

  /** The current job's header (nonce 0), for tests. */
  get header(): Buffer | undefined {
    return this.job?.header;
  }

  get difficulty(): number | undefined {
    const target = this.job?.target ?? this.target;
    return target === undefined ? undefined : POW.blake2s.difficultyForTarget(target);
  }

  /** The 8-byte nonce of a nonce2 in this session. */
  nonce(nonce2: bigint): bigint {
    if (this.nonce1 === undefined) throw new Error('not subscribed');
    return (nonce2 << BigInt(8 * this.nonce1Size)) + this.nonce1;
  }

  /** The Blake2s hash value (little-endian) of the current job with `nonce2`. */
  hashValue(nonce2: bigint): bigint {
    const job = this.job;
    if (!job) throw new Error('no job');
    const work = Buffer.from(job.header);
    work.writeBigUInt64LE(this.nonce(nonce2), NONCE_OFFSET);
    return littleEndian(hash('blake2s256', work, 'buffer'));
  }

  /** nonce2 as this miner writes it. */
  nonce2Text(nonce2: bigint): string {
    const hex = nonce2.toString(16);
    return this.options.padNonce2 ? hex.padStart(this.nonce2Size * 2, '0') : hex;
  }

  search(maxHashes: number, miss = false): MinerSearch {
    const job = this.job;
    if (!job || this.nonce1 === undefined) throw new Error('no job to search');
    const limit = 1n << BigInt(8 * this.nonce2Size);
    const work = Buffer.from(job.header);
    const shift = BigInt(8 * this.nonce1Size);
    for (let hashes = 1; hashes <= maxHashes; hashes++) {
      const nonce2 = job.nextNonce2;
      if (nonce2 >= limit) return { hashes: hashes - 1, share: undefined };
      job.nextNonce2 = nonce2 + 1n;
      work.writeBigUInt64LE((nonce2 << shift) + this.nonce1, NONCE_OFFSET);
      const value = littleEndian(hash('blake2s256', work, 'buffer'));
      if (value <= job.target !== miss) {
        return { hashes, share: { jobId: job.id, params: [this.nonce2Text(nonce2)], hashValue: value } };
      }
    }
    return { hashes: maxHashes, share: undefined };
  }
}
