/**
 * A job source for tests and the benchmark: real bitcoin-family jobs (coinbase split around the
 * extranonce, merkle branch, sha256d merkle root, 80-byte header) at a network target the test
 * chooses, with block submissions recorded instead of sent to a daemon.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type BitcoinJob,
  bitcoinWorkKey,
  type JobSource,
  type MergedWork,
  type SubmitBlockResult,
} from '@lodestone/chain';
import { merkleRoot, sha256d, swapWords } from '../client/work.js';
import type { StratumAlgorithm } from '../pow.js';
import { FixtureWorkSource } from './fixtureWorkSource.js';

/** Bitcoin's compact encoding of a target (for the nbits field of the fixture's headers). */
export function compactBits(target: bigint): number {
  let size = (target.toString(16).length + 1) >> 1;
  let mantissa = size <= 3 ? Number(target << BigInt(8 * (3 - size))) : Number(target >> BigInt(8 * (size - 3)));
  if (mantissa & 0x00800000) {
    mantissa >>>= 8;
    size++;
  }
  return ((size << 24) | mantissa) >>> 0;
}

function varint(n: number): Buffer {
  if (n < 0xfd) return Buffer.from([n]);
  const b = Buffer.alloc(3);
  b[0] = 0xfd;
  b.writeUInt16LE(n, 1);
  return b;
}

export interface FixtureJobOptions {
  algorithm: StratumAlgorithm;
  id: string;
  height: number;
  /** 32 bytes, header (internal) byte order. */
  prevHash: Buffer;
  networkTarget: bigint;
  cleanJobs: boolean;
  curtime: number;
  extranonceSize?: number;
  branchLength?: number;
  coinbaseValue?: bigint;
  /** Where the merkle branch's bytes come from (default: random). */
  bytes?: (size: number) => Buffer;
  /** The merkle branch itself (a template refresh that kept every transaction). */
  merkleBranch?: readonly string[];
  /** Aux chains merge-mined with the job: their commitment is pushed before the extranonce, as createTemplateJob does. */
  merged?: MergedWork | undefined;
}

export function fixtureJob(options: FixtureJobOptions): BitcoinJob {
  const extranonceSize = options.extranonceSize ?? 8;
  const heightPush = Buffer.alloc(4);
  heightPush[0] = 3;
  heightPush.writeUIntLE(options.height, 1, 3);
  // The commitment is 44 bytes: one direct push (below OP_PUSHDATA1).
  const auxPush = options.merged
    ? Buffer.concat([Buffer.from([options.merged.commitment.length]), options.merged.commitment])
    : Buffer.alloc(0);
  const tag = Buffer.from('/lodestone-test/');
  const scriptSigLength = heightPush.length + auxPush.length + extranonceSize + tag.length;
  const coinbaseValue = options.coinbaseValue ?? 625_000_000n;
  const value = Buffer.alloc(8);
  value.writeBigUInt64LE(coinbaseValue);
  const coinbase1 = Buffer.concat([
    Buffer.from('01000000', 'hex'),
    Buffer.from([1]),
    Buffer.alloc(32),
    Buffer.from('ffffffff', 'hex'),
    varint(scriptSigLength),
    heightPush,
    auxPush,
  ]).toString('hex');
  const coinbase2 = Buffer.concat([
    tag,
    Buffer.from('ffffffff', 'hex'),
    Buffer.from([1]),
    value,
    Buffer.from([1, 0x51]),
    Buffer.alloc(4),
  ]).toString('hex');
  const bytes = options.bytes ?? randomBytes;
  const merkleBranch =
    options.merkleBranch ?? Array.from({ length: options.branchLength ?? 2 }, () => bytes(32).toString('hex'));
  const bits = compactBits(options.networkTarget);
  const version = 0x20000000;

  const coinbase = (en1: Uint8Array, en2: Uint8Array) =>
    Buffer.concat([Buffer.from(coinbase1, 'hex'), en1, en2, Buffer.from(coinbase2, 'hex')]);
  const header = (en1: Uint8Array, en2: Uint8Array, ntime: number, nonce: number, v: number) => {
    if (en1.length + en2.length !== extranonceSize) throw new RangeError('extranonce size mismatch');
    const out = Buffer.alloc(80);
    out.writeUInt32LE(v >>> 0, 0);
    options.prevHash.copy(out, 4);
    merkleRoot(coinbase(en1, en2), merkleBranch).copy(out, 36);
    out.writeUInt32LE(ntime >>> 0, 68);
    out.writeUInt32LE(bits, 72);
    out.writeUInt32LE(nonce >>> 0, 76);
    return out;
  };

  const prevHashNotify = swapWords(options.prevHash).toString('hex');
  const bitsHex = bits.toString(16).padStart(8, '0');
  return {
    id: options.id,
    algorithm: options.algorithm,
    coin: options.algorithm === 'sha256' ? 'BTC' : options.algorithm === 'scrypt' ? 'LTC' : 'DASH',
    height: options.height,
    prevHashNotify,
    parentKey: prevHashNotify,
    coinbase1,
    coinbase2,
    extranonceSize,
    merkleBranch,
    version,
    bits: bitsHex,
    curtime: options.curtime,
    mintime: options.curtime - 3600,
    networkTarget: options.networkTarget,
    valuationTarget: options.networkTarget,
    coinbaseValue,
    cleanJobs: options.cleanJobs,
    createdAt: options.curtime * 1000,
    merged: options.merged,
    workKey: bitcoinWorkKey({ prevHashNotify, coinbase1, coinbase2, merkleBranch, version, bits: bitsHex }),
    header,
    block(en1, en2, ntime, nonce, v) {
      return Buffer.concat([header(en1, en2, ntime, nonce, v), varint(1), coinbase(en1, en2)]).toString('hex');
    },
  };
}

export interface FixtureSourceOptions {
  algorithm: StratumAlgorithm;
  /** Default: a target no share meets (2^200), so no share is a block. */
  networkTarget?: bigint;
  extranonceSize?: number;
  /** Clock (epoch ms) for the jobs' curtime; default Date.now. */
  now?: () => number;
  /** What submitBlock answers; default accepted. */
  submitResult?: (job: BitcoinJob) => SubmitBlockResult | Promise<SubmitBlockResult>;
  /** The first job is made at construction (default true). */
  initialJob?: boolean;
  /** Makes every job's bytes follow from this seed (replayed sessions that must repeat exactly). */
  seed?: string;
  /** Every job is merge-mined with these aux chains (fixtureJob's `merged`). */
  merged?: MergedWork;
}

/** Bytes that follow from a seed: sha256(seed ‖ counter), as many as asked. */
export function seededBytes(seed: string): (size: number) => Buffer {
  let counter = 0;
  return (size) => {
    const parts: Buffer[] = [];
    for (let have = 0; have < size; have += 32) {
      parts.push(createHash('sha256').update(`${seed}:${counter++}`).digest());
    }
    return Buffer.concat(parts).subarray(0, size);
  };
}

/** A JobSource whose jobs the test makes: `nextJob()` (same block) and `newBlock()` (clean jobs). */
export class FixtureJobSource extends FixtureWorkSource<BitcoinJob, string> implements JobSource {
  readonly algorithm: StratumAlgorithm;
  readonly submitted: { job: BitcoinJob; blockHex: string }[] = [];
  networkTarget: bigint;
  extranonceSize: number;
  private counter = 0;
  private height = 1000;
  private readonly bytes: (size: number) => Buffer;
  private prevHash: Buffer;

  constructor(private readonly options: FixtureSourceOptions) {
    super();
    this.algorithm = options.algorithm;
    this.bytes = options.seed === undefined ? randomBytes : seededBytes(options.seed);
    this.prevHash = this.bytes(32);
    this.networkTarget = options.networkTarget ?? 1n << 200n;
    this.extranonceSize = options.extranonceSize ?? 8;
    if (options.initialJob !== false) this.job = this.make(true);
  }

  async submitBlock(job: BitcoinJob, blockHex: string): Promise<SubmitBlockResult> {
    this.submitted.push({ job, blockHex });
    if (this.options.submitResult) return this.options.submitResult(job);
    return {
      accepted: true,
      hash: sha256d(Buffer.from(blockHex.slice(0, 160), 'hex'))
        .reverse()
        .toString('hex'),
    };
  }

  /** A new job on the same previous block (clean_jobs false). */
  nextJob(): BitcoinJob {
    return this.publish(this.make(false));
  }

  /**
   * The same work under a new job id and a later template time (`seconds` on): what a daemon's template
   * refresh makes when no transaction changed. Its shares hash to the same headers as the job before.
   */
  refresh(seconds = 1): BitcoinJob {
    const latest = this.job;
    if (latest === undefined) throw new Error('no job to refresh');
    this.counter++;
    return this.publish(
      fixtureJob({
        algorithm: this.algorithm,
        id: this.counter.toString(16),
        height: this.height,
        prevHash: this.prevHash,
        networkTarget: this.networkTarget,
        cleanJobs: false,
        curtime: latest.curtime + seconds,
        extranonceSize: this.extranonceSize,
        merkleBranch: latest.merkleBranch,
        merged: this.options.merged,
      }),
    );
  }

  /** A job on a new previous block (clean_jobs true): every older job is stale. */
  newBlock(): BitcoinJob {
    this.height++;
    this.prevHash = this.bytes(32);
    return this.publish(this.make(true));
  }

  private make(cleanJobs: boolean): BitcoinJob {
    this.counter++;
    return fixtureJob({
      algorithm: this.algorithm,
      id: this.counter.toString(16),
      height: this.height,
      prevHash: this.prevHash,
      networkTarget: this.networkTarget,
      cleanJobs,
      curtime: Math.floor((this.options.now?.() ?? Date.now()) / 1000),
      extranonceSize: this.extranonceSize,
      bytes: this.bytes,
      merged: this.options.merged,
    });
  }
}
