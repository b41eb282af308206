/**
 * Kadena chainweb block headers: the 286-byte work header (the header without its hash, what is mined),
 * the 318-byte header (work ‖ block hash) and the block hash, which is not the proof-of-work hash but
 * the root of a Merkle tree over the header's fields.
 *
 * Layout (chainweb-node src/Chainweb/BlockHeader/Internal.hs `encodeBlockHeaderWithoutHash`; offsets as
 * packages/pow blake2s.ts): flags 0, creation time 8 (µs, int64 LE), parent 16, adjacent parents 48
 * (uint16 count + count × (chain id uint32 + hash)), target 158 (uint256 LE), payload hash 190, chain id
 * 222, weight 226 (uint256 LE), height 258 (uint64 LE), chainweb version code 266, epoch start 270,
 * nonce 278 (uint64 LE); the block hash follows at 286 in the full header.
 *
 * Block hash (BlockHeader/Internal.hs `HasMerkleLog` instance, merkle-log src/Data/MerkleLog.hs,
 * Chainweb/MerkleUniverse.hs): SHA-512/256 Merkle tree, leaf = H(0x00 ‖ tag uint16 BE ‖ field bytes),
 * inner node = H(0x01 ‖ left ‖ right), over the fields in the order flags, creation time, parent,
 * target, payload hash, chain id, weight, height, version, epoch start, nonce, then the adjacent parent
 * hashes by chain id. Hashes (parent, payload, adjacents) enter as tree nodes, unhashed. Checked
 * against 360 real mainnet headers in header.test.ts.
 */
import { hash } from 'node:crypto';
import { KADENA_NONCE_OFFSET, KADENA_TARGET_OFFSET, KADENA_TIME_OFFSET, KADENA_WORK_LENGTH } from '@lodestone/pow';

export const KADENA_HEADER_LENGTH = KADENA_WORK_LENGTH + 32;
export const KADENA_PARENT_OFFSET = 16;
export const KADENA_ADJACENTS_OFFSET = 48;
export const KADENA_PAYLOAD_OFFSET = 190;
export const KADENA_CHAIN_OFFSET = 222;
export const KADENA_WEIGHT_OFFSET = 226;
export const KADENA_HEIGHT_OFFSET = 258;
export const KADENA_VERSION_OFFSET = 266;
export const KADENA_EPOCH_OFFSET = 270;
/** Three adjacent parents on the Petersen and twenty-chain graphs: 2 + 3 × 36 bytes. */
const ADJACENTS_LENGTH = KADENA_PAYLOAD_OFFSET - 32 - KADENA_ADJACENTS_OFFSET;

/** The fields of a work header, hashes as 32 raw bytes. */
export interface KadenaHeader {
  flags: bigint;
  /** Microseconds since the epoch. */
  creationTime: bigint;
  parent: Uint8Array;
  /** Adjacent parents, ordered by chain id. */
  adjacents: readonly { chainId: number; hash: Uint8Array }[];
  target: bigint;
  payloadHash: Uint8Array;
  chainId: number;
  weight: bigint;
  height: bigint;
  versionCode: number;
  epochStart: bigint;
  nonce: bigint;
}

/** A work header or header that does not have chainweb's layout. */
export class KadenaHeaderError extends Error {
  override readonly name = 'KadenaHeaderError';
}

function readUintLE(bytes: Uint8Array, offset: number, length: number): bigint {
  let value = 0n;
  for (let i = offset + length - 1; i >= offset; i--) value = (value << 8n) | BigInt(bytes[i] as number);
  return value;
}

function writeUintLE(out: Uint8Array, offset: number, length: number, value: bigint): void {
  if (value < 0n || value >> BigInt(8 * length) !== 0n) {
    throw new KadenaHeaderError(`value ${value} does not fit in ${length} bytes`);
  }
  let v = value;
  for (let i = 0; i < length; i++) {
    out[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** The fields of a 286-byte work header (or the first 286 bytes of a 318-byte header). */
export function parseKadenaHeader(bytes: Uint8Array): KadenaHeader {
  if (bytes.length !== KADENA_WORK_LENGTH && bytes.length !== KADENA_HEADER_LENGTH) {
    throw new KadenaHeaderError(
      `a work header is ${KADENA_WORK_LENGTH} bytes (${KADENA_HEADER_LENGTH} with its hash), got ${bytes.length}`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const count = view.getUint16(KADENA_ADJACENTS_OFFSET, true);
  if (2 + count * 36 !== ADJACENTS_LENGTH) {
    throw new KadenaHeaderError(`${count} adjacent parents: this layout has 3 (the 20-chain and 10-chain graphs)`);
  }
  const adjacents: { chainId: number; hash: Uint8Array }[] = [];
  for (let i = 0; i < count; i++) {
    const at = KADENA_ADJACENTS_OFFSET + 2 + i * 36;
    adjacents.push({ chainId: view.getUint32(at, true), hash: Uint8Array.from(bytes.subarray(at + 4, at + 36)) });
  }
  return {
    flags: view.getBigUint64(0, true),
    creationTime: view.getBigInt64(KADENA_TIME_OFFSET, true),
    parent: Uint8Array.from(bytes.subarray(KADENA_PARENT_OFFSET, KADENA_PARENT_OFFSET + 32)),
    adjacents,
    target: readUintLE(bytes, KADENA_TARGET_OFFSET, 32),
    payloadHash: Uint8Array.from(bytes.subarray(KADENA_PAYLOAD_OFFSET, KADENA_PAYLOAD_OFFSET + 32)),
    chainId: view.getUint32(KADENA_CHAIN_OFFSET, true),
    weight: readUintLE(bytes, KADENA_WEIGHT_OFFSET, 32),
    height: view.getBigUint64(KADENA_HEIGHT_OFFSET, true),
    versionCode: view.getUint32(KADENA_VERSION_OFFSET, true),
    epochStart: view.getBigInt64(KADENA_EPOCH_OFFSET, true),
    nonce: view.getBigUint64(KADENA_NONCE_OFFSET, true),
  };
}

/** The 286-byte work header of `header` (adjacent parents written in chain id order, as chainweb does). */
export function encodeKadenaHeader(header: KadenaHeader): Uint8Array {
  const out = new Uint8Array(KADENA_WORK_LENGTH);
  const view = new DataView(out.buffer);
  const hash32 = (bytes: Uint8Array, offset: number, what: string) => {
    if (bytes.length !== 32) throw new KadenaHeaderError(`${what} is ${bytes.length} bytes, not 32`);
    out.set(bytes, offset);
  };
  if (header.adjacents.length !== 3) throw new KadenaHeaderError('a header has 3 adjacent parents');
  view.setBigUint64(0, header.flags, true);
  view.setBigInt64(KADENA_TIME_OFFSET, header.creationTime, true);
  hash32(header.parent, KADENA_PARENT_OFFSET, 'parent');
  view.setUint16(KADENA_ADJACENTS_OFFSET, header.adjacents.length, true);
  [...header.adjacents]
    .sort((a, b) => a.chainId - b.chainId)
    .forEach((adjacent, i) => {
      const at = KADENA_ADJACENTS_OFFSET + 2 + i * 36;
      view.setUint32(at, adjacent.chainId, true);
      hash32(adjacent.hash, at + 4, `adjacent parent on chain ${adjacent.chainId}`);
    });
  writeUintLE(out, KADENA_TARGET_OFFSET, 32, header.target);
  hash32(header.payloadHash, KADENA_PAYLOAD_OFFSET, 'payload hash');
  view.setUint32(KADENA_CHAIN_OFFSET, header.chainId, true);
  writeUintLE(out, KADENA_WEIGHT_OFFSET, 32, header.weight);
  view.setBigUint64(KADENA_HEIGHT_OFFSET, header.height, true);
  view.setUint32(KADENA_VERSION_OFFSET, header.versionCode, true);
  view.setBigInt64(KADENA_EPOCH_OFFSET, header.epochStart, true);
  view.setBigUint64(KADENA_NONCE_OFFSET, header.nonce, true);
  return out;
}

// Merkle tags (chainweb-node src/Chainweb/MerkleUniverse.hs).
const TAG = {
  chainId: 0x0002,
  height: 0x0003,
  weight: 0x0004,
  flags: 0x0006,
  creationTime: 0x0007,
  version: 0x0008,
  target: 0x0011,
  epochStart: 0x0019,
  nonce: 0x0020,
} as const;

function sha512t256(...parts: Uint8Array[]): Buffer {
  return hash('sha512-256', Buffer.concat(parts), 'buffer');
}

function leaf(tag: number, bytes: Uint8Array): Buffer {
  return sha512t256(Uint8Array.of(0, tag >> 8, tag & 0xff), bytes);
}

/** The root of merkle-log's tree: leaves are combined pairwise as they come, the rest folded from the right. */
function merkleRoot(nodes: readonly Uint8Array[]): Buffer {
  const stack: { level: number; hash: Uint8Array }[] = [];
  const combine = () => {
    const right = stack.pop() as { level: number; hash: Uint8Array };
    const left = stack.pop() as { level: number; hash: Uint8Array };
    stack.push({ level: right.level + 1, hash: sha512t256(Uint8Array.of(1), left.hash, right.hash) });
  };
  for (const node of nodes) {
    stack.push({ level: 0, hash: node });
    while (stack.length >= 2 && stack.at(-1)?.level === stack.at(-2)?.level) combine();
  }
  while (stack.length > 1) combine();
  return Buffer.from((stack[0] as { hash: Uint8Array }).hash);
}

/** The block hash (32 bytes) of a 286-byte work header with its final nonce and creation time. */
export function kadenaBlockHash(work: Uint8Array): Buffer {
  if (work.length !== KADENA_WORK_LENGTH && work.length !== KADENA_HEADER_LENGTH) {
    throw new KadenaHeaderError(`a work header is ${KADENA_WORK_LENGTH} bytes, got ${work.length}`);
  }
  const field = (offset: number, length: number) => work.subarray(offset, offset + length);
  const header = parseKadenaHeader(work.subarray(0, KADENA_WORK_LENGTH));
  return merkleRoot([
    leaf(TAG.flags, field(0, 8)),
    leaf(TAG.creationTime, field(KADENA_TIME_OFFSET, 8)),
    field(KADENA_PARENT_OFFSET, 32),
    leaf(TAG.target, field(KADENA_TARGET_OFFSET, 32)),
    field(KADENA_PAYLOAD_OFFSET, 32),
    leaf(TAG.chainId, field(KADENA_CHAIN_OFFSET, 4)),
    leaf(TAG.weight, field(KADENA_WEIGHT_OFFSET, 32)),
    leaf(TAG.height, field(KADENA_HEIGHT_OFFSET, 8)),
    leaf(TAG.version, field(KADENA_VERSION_OFFSET, 4)),
    leaf(TAG.epochStart, field(KADENA_EPOCH_OFFSET, 8)),
    leaf(TAG.nonce, field(KADENA_NONCE_OFFSET, 8)),
    ...[...header.adjacents].sort((a, b) => a.chainId - b.chainId).map((a) => a.hash),
  ]);
}

/** Chainweb's text form of a hash: unpadded base64url (block hashes in /cut, /header, ...). */
export function hashToBase64Url(hash: Uint8Array): string {
  return Buffer.from(hash).toString('base64url');
}

/** The 32 bytes of a base64url block hash (padded or not); throws on anything else. */
export function base64UrlToHash(text: string): Buffer {
  const bytes = /^[A-Za-z0-9_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64url') : undefined;
  if (bytes?.length !== 32) throw new KadenaHeaderError(`not a base64url block hash: ${JSON.stringify(text)}`);
  return bytes;
}

/**
 * The twenty-chain graph, in use on mainnet01 from height 852 054 and on testnet04 from 332 604 (and on
 * development from genesis): chain id → its three adjacent chains. Confirmed by the real headers of
 * chain 5 (adjacents 0, 7, 8); the same table appears in Kadena light-client code.
 */
export const TWENTY_CHAIN_GRAPH: Readonly<Record<number, readonly [number, number, number]>> = Object.freeze({
  0: [5, 10, 15],
  1: [6, 11, 16],
  2: [7, 12, 17],
  3: [8, 13, 18],
  4: [9, 14, 19],
  5: [0, 7, 8],
  6: [1, 8, 9],
  7: [2, 5, 9],
  8: [3, 5, 6],
  9: [4, 6, 7],
  10: [0, 11, 19],
  11: [1, 10, 12],
  12: [2, 11, 13],
  13: [3, 12, 14],
  14: [4, 13, 15],
  15: [0, 14, 16],
  16: [1, 15, 17],
  17: [2, 16, 18],
  18: [3, 17, 19],
  19: [4, 10, 18],
});

/** Chainweb versions a pool meets: name (the path segment after /chainweb/0.0/) ↔ code in headers. */
export const CHAINWEB_VERSIONS = Object.freeze({
  mainnet01: { code: 0x05, twentyChainsFrom: 852_054n },
  testnet04: { code: 0x07, twentyChainsFrom: 332_604n },
  development: { code: 0x02, twentyChainsFrom: 0n },
} as const);

export type ChainwebVersionName = keyof typeof CHAINWEB_VERSIONS;

export function isChainwebVersionName(name: string): name is ChainwebVersionName {
  return Object.hasOwn(CHAINWEB_VERSIONS, name);
}
