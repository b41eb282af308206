import { KADENA_TIME_OFFSET, KADENA_WORK_LENGTH, kadenaTarget, setKadenaNonce } from '@lodestone/pow';
import type { WorkJob } from '../job.js';
import { type ChainwebVersionName, hashToBase64Url, KadenaHeaderError, parseKadenaHeader } from './header.js';
import { kadenaBlockReward } from './minerRewards.js';

/** What GET …/mining/work answers: chain id (uint32 LE) ‖ target (uint256 LE) ‖ 286-byte work header. */
export const KADENA_WORK_REPLY_LENGTH = 4 + 32 + KADENA_WORK_LENGTH;

/** A work reply, read strictly (Chainweb/Cut/Create.hs `encodeWorkHeader`). */
export interface KadenaWork {
  chainId: number;
  target: bigint;
  /** The 286-byte work header, a copy. */
  header: Uint8Array;
}

/**
 * Reads the 322 bytes of a work reply. The chain id and target before the header must be the header's
 * own: a reply where they differ is not chainweb's, and mining it would be wasted.
 */
export function parseKadenaWork(reply: Uint8Array): KadenaWork {
  if (reply.length !== KADENA_WORK_REPLY_LENGTH) {
    throw new KadenaHeaderError(`work reply is ${reply.length} bytes; chainweb sends ${KADENA_WORK_REPLY_LENGTH}`);
  }
  const view = new DataView(reply.buffer, reply.byteOffset, reply.length);
  const chainId = view.getUint32(0, true);
  let target = 0n;
  for (let i = 35; i >= 4; i--) target = (target << 8n) | BigInt(reply[i] as number);
  const header = Uint8Array.from(reply.subarray(36));
  const fields = parseKadenaHeader(header);
  if (fields.chainId !== chainId) {
    throw new KadenaHeaderError(`work reply says chain ${chainId} but its header is for chain ${fields.chainId}`);
  }
  if (fields.target !== target) throw new KadenaHeaderError('work reply target differs from its header target');
  if (target === 0n) throw new KadenaHeaderError('work reply target is 0');
  return { chainId, target, header };
}

/**
 * A unit of Kadena work as stratum hands it to miners: one chain's 286-byte work header. The stratum
 * dialect sends `header` in mining.notify; a miner's u64 nonce goes to `solved(nonce)`; a block is a
 * share whose Blake2s hash (read little-endian) is ≤ `networkTarget`.
 */
export interface KadenaJob extends WorkJob {
  readonly algorithm: 'blake2s';
  readonly chainId: number;
  /** The 286-byte work header with nonce 0 (a copy each read is not made: do not write into it). */
  readonly header: Uint8Array;
  /** Creation time in the header, µs since the epoch. */
  readonly creationTime: bigint;
  /** Parent block hash, base64url (chainweb's text form). */
  readonly parentHash: string;
  /** Payload hash, base64url: the node knows the work by it (and answers 404 once it forgot it). */
  readonly payloadHash: string;
  /** The node that handed out the work; only it can take the solution. */
  readonly node: string;
  readonly version: ChainwebVersionName;
  /** The same work with another creation time (µs) and a new job id; not clean. */
  withCreationTime(micros: bigint): KadenaJob;
  /** The 286 bytes to POST to …/mining/solved: this header with `nonce` (uint64 LE) at offset 278. */
  solved(nonce: bigint): Uint8Array;
}

export interface KadenaJobInit {
  id: string;
  work: KadenaWork;
  node: string;
  version: ChainwebVersionName;
  cleanJobs: boolean;
  createdAt: number;
  coin?: string;
  /** Makes the job id of a re-issued job (the source's counter). */
  nextId: () => string;
  /** Epoch ms clock for re-issued jobs' createdAt (Date.now by default). */
  now?: () => number;
}

/** A KadenaJob from a work reply. */
export function createKadenaJob(init: KadenaJobInit): KadenaJob {
  const fields = parseKadenaHeader(init.work.header);
  const header = Uint8Array.from(init.work.header);
  const base = {
    algorithm: 'blake2s' as const,
    coin: init.coin ?? 'KDA',
    chainId: init.work.chainId,
    height: Number(fields.height),
    networkTarget: kadenaTarget(header),
    coinbaseValue: kadenaBlockReward(init.version, fields.height),
    parentHash: hashToBase64Url(fields.parent),
    // Twenty chains: a parent is only unique within its chain.
    parentKey: `${init.work.chainId}:${hashToBase64Url(fields.parent)}`,
    payloadHash: hashToBase64Url(fields.payloadHash),
    node: init.node,
    version: init.version,
  };
  const make = (id: string, bytes: Uint8Array, creationTime: bigint, cleanJobs: boolean, createdAt: number) => {
    const job: KadenaJob = {
      ...base,
      id,
      header: bytes,
      creationTime,
      cleanJobs,
      createdAt,
      // The whole work header with nonce 0: the nonce is the miner's, every other byte is hashed.
      workKey: Buffer.from(bytes).toString('hex'),
      withCreationTime(micros: bigint): KadenaJob {
        if (micros < 0n || micros >= 1n << 63n) throw new RangeError(`creation time ${micros} µs is out of range`);
        const next = Uint8Array.from(bytes);
        new DataView(next.buffer).setBigInt64(KADENA_TIME_OFFSET, micros, true);
        return make(init.nextId(), next, micros, false, (init.now ?? Date.now)());
      },
      solved(nonce: bigint): Uint8Array {
        if (nonce < 0n || nonce >= 1n << 64n) throw new RangeError(`nonce ${nonce} is not a uint64`);
        const out = Uint8Array.from(bytes);
        setKadenaNonce(out, nonce);
        return out;
      },
    };
    return Object.freeze(job);
  };
  return make(init.id, header, fields.creationTime, init.cleanJobs, init.createdAt);
}
