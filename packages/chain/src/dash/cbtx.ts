import { ByteReader, ParseError } from '../bitcoin/reader.js';
import { encodeVarInt } from '../bitcoin/serialize.js';

/**
 * The coinbase special transaction's payload (DIP4 CbTx), as Dash Core serializes it (src/evo/cbtx.h,
 * CCbTx SERIALIZE_METHODS): uint16 version, int32 height, uint256 merkleRootMNList; from version 2
 * uint256 merkleRootQuorums; from version 3 CompactSize bestCLHeightDiff, a 96-byte BLS
 * bestCLSignature and int64 creditPoolBalance. Versions 1–3 are CCbTx::Version MERKLE_ROOT_MNLIST,
 * MERKLE_ROOT_QUORUMS and CLSIG_AND_BALANCE.
 */
export interface CbTx {
  version: number;
  height: number;
  /** Internal byte order (as serialized). */
  merkleRootMNList: Buffer;
  merkleRootQuorums?: Buffer;
  bestCLHeightDiff?: number;
  /** 96 bytes; all zero when the miner knew no ChainLock. */
  bestCLSignature?: Buffer;
  /** Duffs. */
  creditPoolBalance?: bigint;
}

/** The newest CbTx version this module decodes field by field. */
export const CBTX_KNOWN_VERSION = 3;
export const BLS_SIGNATURE_SIZE = 96;

/** The fields every CbTx version starts with: enough to check which block a payload is for. */
export function readCbTxPrefix(payload: Uint8Array): { version: number; height: number } {
  const reader = new ByteReader(payload);
  const version = reader.bytes(2, 'CbTx version').readUInt16LE(0);
  const height = reader.int32('CbTx height');
  return { version, height };
}

/** Decodes a CbTx payload of a known version; a short, long or unknown payload is a ParseError. */
export function parseCbTx(payload: Uint8Array): CbTx {
  const reader = new ByteReader(payload);
  const version = reader.bytes(2, 'CbTx version').readUInt16LE(0);
  if (version === 0 || version > CBTX_KNOWN_VERSION) throw new ParseError(`CbTx version ${version} is not known`);
  const cbtx: CbTx = {
    version,
    height: reader.int32('CbTx height'),
    merkleRootMNList: Buffer.from(reader.bytes(32, 'merkleRootMNList')),
  };
  if (version >= 2) cbtx.merkleRootQuorums = Buffer.from(reader.bytes(32, 'merkleRootQuorums'));
  if (version >= 3) {
    cbtx.bestCLHeightDiff = reader.varInt('bestCLHeightDiff');
    cbtx.bestCLSignature = Buffer.from(reader.bytes(BLS_SIGNATURE_SIZE, 'bestCLSignature'));
    const balance = reader.uint64('creditPoolBalance');
    cbtx.creditPoolBalance = BigInt.asIntN(64, balance);
  }
  if (reader.remaining !== 0)
    throw new ParseError(`${reader.remaining} unexpected bytes after a version ${version} CbTx`);
  return cbtx;
}

/** Serializes a CbTx (the inverse of parseCbTx). */
export function serializeCbTx(cbtx: CbTx): Buffer {
  const { version } = cbtx;
  if (version === 0 || version > CBTX_KNOWN_VERSION) throw new RangeError(`CbTx version ${version} is not known`);
  const head = Buffer.alloc(6);
  head.writeUInt16LE(version, 0);
  head.writeInt32LE(cbtx.height, 2);
  const parts: Buffer[] = [head, need(cbtx.merkleRootMNList, 32, 'merkleRootMNList')];
  if (version >= 2) parts.push(need(cbtx.merkleRootQuorums, 32, 'merkleRootQuorums'));
  if (version >= 3) {
    parts.push(encodeVarInt(cbtx.bestCLHeightDiff ?? 0));
    parts.push(need(cbtx.bestCLSignature ?? Buffer.alloc(BLS_SIGNATURE_SIZE), BLS_SIGNATURE_SIZE, 'bestCLSignature'));
    const balance = Buffer.alloc(8);
    balance.writeBigInt64LE(cbtx.creditPoolBalance ?? 0n);
    parts.push(balance);
  }
  return Buffer.concat(parts);
}

function need(bytes: Uint8Array | undefined, length: number, what: string): Buffer {
  if (bytes === undefined || bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes`);
  return Buffer.from(bytes);
}
