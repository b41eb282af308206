/**
 * A Kaspa miner's side of stratum, for tests and the demo fleet, written from what the miners and the
 * reference bridge exchange (kaspanet/rusty-kaspa bridge/src/{default_client,client_handler,hasher,
 * share_handler}.rs @593399e; tmrlvi/kaspa-miner for the target), not from our server's dialect:
 *
 * - subscribe with the agent string; Bitmain reads `[null, extranonce, nonce2 size]` from the answer,
 *   the others `[true, "EthereumStratum/1.0.0"]` and wait for mining.set_extranonce;
 * - mining.set_difficulty `[d]`: the share target is 0xffff·2^208 / d, as ASIC firmware and
 *   kaspa-miner compute it (0.0015 % below the bridge's (2^224 − 1) / d, so every share it finds
 *   meets the pool's target too);
 * - mining.notify: the big job `[id, "<pre_pow_hash><timestamp u64 LE>"]` or the legacy job
 *   `[id, [w0..w3], timestamp]`, whose integers above 2^53 are read exactly from the raw line;
 * - the nonce is extranonce (high bytes) ‖ the miner's counter, hashed as kHeavyHash of
 *   pre_pow_hash ‖ timestamp LE ‖ 32 zero bytes ‖ nonce LE and read little-endian.
 *
 * How each kind writes its submit (the bridge reads all of them): IceRiver and Goldshell the full
 * nonce as 16 hex digits, Bitmain the same, BzMiner with a 0x prefix, lolMiner five parameters
 * `[worker, jobId, extranonce2, ntime, nonce]` whose nonce is only its own 6 bytes (the pool puts the
 * extranonce in front).
 */
import { parseJsonExact } from '@lodestone/chain';
import { kaspaPowInput, kheavyhash, setKaspaNonce } from '@lodestone/pow';
import type { MinerDialect, MinerSearch } from '../../stratum/client/minerDialect.js';

export type KaspaMinerKind = 'iceriver' | 'bitmain' | 'bzminer' | 'lolminer' | 'goldshell';

/** Agent strings as the miners send them at subscribe. */
export const KASPA_AGENTS: Record<KaspaMinerKind, string> = {
  iceriver: 'IceRiverMiner-v1.1',
  bitmain: 'GodMiner/2.0.0',
  bzminer: 'BzMiner-v21.5.3',
  lolminer: 'lolMiner 1.98',
  goldshell: 'Goldshell-KDBox/2.2.4',
};

/** The ASIC-side difficulty-1 target, 0xffff · 2^208 (tmrlvi/kaspa-miner src/client/stratum.rs). */
const MINER_DIFF1_TARGET = 0xffffn << 208n;

/** floor(MINER_DIFF1_TARGET / d), exact for any positive double (d = m / 2^k). */
export function minerTarget(difficulty: number): bigint {
  let m = difficulty;
  let k = 0n;
  while (!Number.isInteger(m)) {
    m *= 2;
    k++;
  }
  return (MINER_DIFF1_TARGET << k) / BigInt(m);
}

interface KaspaWork {
  jobId: string;
  input: Uint8Array;
  timestamp: bigint;
}

function hashValue(hash: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(hash).reverse().toString('hex')}`);
}

export class KaspaMiner implements MinerDialect {
  extranonce = '';
  /** Nonce bytes the miner chooses (8 − extranonce bytes). */
  nonce2Size = 8;
  difficulty: number | undefined;
  private target: bigint | undefined;
  private work: KaspaWork | undefined;
  private counter: bigint;

  constructor(
    readonly kind: KaspaMinerKind,
    private readonly startNonce = 0n,
  ) {
    this.counter = startNonce;
  }

  get agent(): string {
    return KASPA_AGENTS[this.kind];
  }

  get ready(): boolean {
    return this.work !== undefined && this.target !== undefined;
  }

  get jobId(): string | undefined {
    return this.work?.jobId;
  }

  subscribeParams(agent: string = this.agent): unknown[] {
    // GPU miners also name the protocol they speak; ASIC firmware sends its agent alone.
    return this.kind === 'lolminer' || this.kind === 'bzminer' ? [agent, 'EthereumStratum/1.0.0'] : [agent];
  }

  subscribed(result: unknown): void {
    if (!Array.isArray(result)) throw new Error(`Kaspa subscribe: unexpected answer ${JSON.stringify(result)}`);
    if (this.kind === 'bitmain') {
      const [, extranonce, size] = result;
      if (result[0] !== null || typeof extranonce !== 'string' || typeof size !== 'number') {
        throw new Error(`Kaspa subscribe: not Bitmain's [null, extranonce, size]: ${JSON.stringify(result)}`);
      }
      this.setExtranonce(extranonce, size);
    } else if (result[0] !== true || result[1] !== 'EthereumStratum/1.0.0') {
      throw new Error(`Kaspa subscribe: not [true, "EthereumStratum/1.0.0"]: ${JSON.stringify(result)}`);
    }
  }

  /** Notifications that could not be read (a miner keeps its work and ignores them). */
  malformedNotifications = 0;

  notification(method: string, params: readonly unknown[], line: string): void {
    try {
      this.read(method, params, line);
    } catch {
      this.malformedNotifications++;
    }
  }

  private read(method: string, params: readonly unknown[], line: string): void {
    if (method === 'mining.set_extranonce') {
      const [extranonce, size] = params;
      if (typeof extranonce === 'string') this.setExtranonce(extranonce, typeof size === 'number' ? size : undefined);
    } else if (method === 'mining.set_difficulty') {
      const [difficulty] = params;
      if (typeof difficulty === 'number' && difficulty > 0 && Number.isFinite(difficulty)) {
        this.difficulty = difficulty;
        this.target = minerTarget(difficulty);
      }
    } else if (method === 'mining.notify') {
      this.work = readJob(params, line);
      this.counter = this.startNonce;
    }
  }

  /** The u64 nonce for a counter value: the extranonce in the high bytes. */
  nonceFor(counter: bigint): bigint {
    const low = BigInt.asUintN(8 * this.nonce2Size, counter);
    return this.extranonce === '' ? low : (BigInt(`0x${this.extranonce}`) << BigInt(8 * this.nonce2Size)) | low;
  }

  /** The hash value of a nonce on the current job. */
  hashValue(nonce: bigint): bigint {
    const work = this.requireWork();
    setKaspaNonce(work.input, nonce);
    return hashValue(kheavyhash(work.input));
  }

  /** The submit parameters after `[worker, jobId]` for a nonce, as this kind writes them. */
  submitParams(nonce: bigint): unknown[] {
    const full = BigInt.asUintN(64, nonce).toString(16).padStart(16, '0');
    switch (this.kind) {
      case 'bzminer':
        return [`0x${full}`];
      case 'lolminer': {
        const own = full.slice(16 - 2 * this.nonce2Size);
        const ntime = this.requireWork().timestamp.toString(16).padStart(16, '0');
        return [own, ntime, own];
      }
      default:
        return [full];
    }
  }

  search(maxHashes: number, miss = false): MinerSearch {
    const work = this.requireWork();
    const target = this.target;
    if (target === undefined) throw new Error('Kaspa miner: no difficulty yet');
    // A miss must miss the pool's target as well, which is a hair above this miner's.
    const missAbove = target + (target >> 10n);
    for (let hashes = 1; hashes <= maxHashes; hashes++) {
      const nonce = this.nonceFor(this.counter);
      this.counter++;
      setKaspaNonce(work.input, nonce);
      const value = hashValue(kheavyhash(work.input));
      if (miss ? value > missAbove : value <= target) {
        return { hashes, share: { jobId: work.jobId, params: this.submitParams(nonce), hashValue: value } };
      }
    }
    return { hashes: maxHashes, share: undefined };
  }

  private setExtranonce(extranonce: string, size: number | undefined): void {
    if (!/^(?:[0-9a-f]{2}){0,7}$/i.test(extranonce)) throw new Error(`Kaspa miner: bad extranonce ${extranonce}`);
    this.extranonce = extranonce.toLowerCase();
    this.nonce2Size = size ?? 8 - extranonce.length / 2;
    if (this.nonce2Size + extranonce.length / 2 !== 8) throw new Error('Kaspa miner: extranonce sizes do not add to 8');
  }

  private requireWork(): KaspaWork {
    if (!this.work) throw new Error('Kaspa miner: no job yet');
    return this.work;
  }
}

/** A job from mining.notify params (big job) or, for the legacy job, from the raw line. */
function readJob(params: readonly unknown[], line: string): KaspaWork {
  const [jobId, data] = params;
  if (typeof jobId !== 'string') throw new Error('Kaspa notify: job id is not a string');
  if (typeof data === 'string') {
    if (!/^[0-9a-f]{80}$/i.test(data)) throw new Error('Kaspa notify: big job is not 80 hex digits');
    const bytes = Buffer.from(data, 'hex');
    const timestamp = bytes.readBigUInt64LE(32);
    return { jobId, timestamp, input: kaspaPowInput(bytes.subarray(0, 32), timestamp, 0n) };
  }
  // JSON.parse has rounded the words already: read them again from the text.
  const exact = parseJsonExact(line) as { params?: unknown[] };
  const [, words, timestamp] = exact.params ?? [];
  const integer = (v: unknown) =>
    typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) ? BigInt(v) : undefined;
  if (!Array.isArray(words) || words.length !== 4 || integer(timestamp) === undefined) {
    throw new Error('Kaspa notify: legacy job is not [id, [4 words], timestamp]');
  }
  const hash = Buffer.alloc(32);
  words.forEach((word, i) => {
    const value = integer(word);
    if (value === undefined || value >= 1n << 64n) throw new Error('Kaspa notify: a word is not a u64');
    hash.writeBigUInt64LE(value, 8 * i);
  });
  const ts = integer(timestamp) as bigint;
  return { jobId, timestamp: ts, input: kaspaPowInput(hash, ts, 0n) };
}
