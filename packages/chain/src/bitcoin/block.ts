import { concatBytes } from './bytes.js';
import { sha256d } from './hash.js';
import { type BlockHeader, HEADER_SIZE, parseHeader } from './header.js';
import { ByteReader, ParseError } from './reader.js';
import { encodeVarInt } from './serialize.js';

/** Marker byte of a present MWEB extension block (an OptionalPtr that is set). */
export const MWEB_PRESENT = 0x01;

export interface BlockParts {
  header: Uint8Array;
  /** The coinbase as it goes into the block (witness-serialized when the block commits to witnesses). */
  coinbase: Uint8Array;
  /** The template's transactions, serialized as the daemon gave them, in block order. */
  transactions: readonly Uint8Array[];
  /** Litecoin: the serialized MWEB block from getblocktemplate's `mweb`, when MWEB is active. */
  mweb?: Uint8Array;
}

/**
 * header ‖ CompactSize(tx count) ‖ coinbase ‖ transactions ‖ [0x01 ‖ MWEB block].
 *
 * Litecoin serializes a block's MWEB extension after the transactions whenever the last transaction is
 * the HogEx (src/primitives/block.h, CBlock SERIALIZE_METHODS: `if (vtx.size() >= 2 &&
 * vtx.back()->IsHogEx()) READWRITE(mweb_block)`), and MWEB::Block is an OptionalPtr, written as a
 * 0x01 "present" byte followed by mw::Block (src/mweb/mweb_models.h). getblocktemplate's `mweb` field
 * is that mw::Block's serialization without the marker (src/rpc/mining.cpp:
 * `HexStr(mweb_block.m_block->Serialized())`).
 */
export function serializeBlock(parts: BlockParts): Buffer {
  if (parts.header.length !== HEADER_SIZE) throw new RangeError('header must be 80 bytes');
  const chunks: Uint8Array[] = [
    parts.header,
    encodeVarInt(1 + parts.transactions.length),
    parts.coinbase,
    ...parts.transactions,
  ];
  if (parts.mweb !== undefined) chunks.push(Buffer.from([MWEB_PRESENT]), parts.mweb);
  return concatBytes(chunks);
}

export interface ParsedTransaction {
  /** Serialized bytes as found in the block. */
  raw: Buffer;
  /** Hash of the serialization without witness (and without MWEB data): the txid, internal byte order. */
  txid: Buffer;
  version: number;
  inputs: { prevTxid: Buffer; prevIndex: number; script: Buffer; sequence: number; witness: Buffer[] }[];
  outputs: { value: bigint; script: Buffer }[];
  lockTime: number;
  hasWitness: boolean;
  /** Litecoin: the transaction carries the MWEB flag (8); with an empty MWEB body it is the HogEx. */
  isHogEx: boolean;
}

export interface ParsedBlock {
  header: BlockHeader;
  headerBytes: Buffer;
  transactions: ParsedTransaction[];
  /** Litecoin: bytes of the MWEB block after the present-marker, when there is one. */
  mweb?: Buffer;
}

/**
 * Parses a transaction: legacy or BIP144 extended format, plus Litecoin's MWEB flag for the HogEx
 * (src/primitives/transaction.h UnserializeTransaction). Full MWEB transactions are not decoded.
 */
export function readTransaction(reader: ByteReader): ParsedTransaction {
  const start = reader.position;
  const version = reader.int32('tx version');
  let flags = 0;
  let hasWitness = false;
  let isHogEx = false;
  if (reader.peekUint8(0) === 0x00 && reader.peekUint8(1) !== 0x00) {
    reader.uint8('marker');
    flags = reader.uint8('flags');
  }
  const bodyStart = reader.position;
  const inputCount = reader.varInt('input count');
  const inputs: ParsedTransaction['inputs'] = [];
  for (let i = 0; i < inputCount; i++) {
    const prevTxid = reader.bytes(32, 'prevout hash');
    const prevIndex = reader.uint32('prevout index');
    const script = reader.varBytes('scriptSig');
    const sequence = reader.uint32('sequence');
    inputs.push({ prevTxid, prevIndex, script, sequence, witness: [] });
  }
  const outputCount = reader.varInt('output count');
  const outputs: ParsedTransaction['outputs'] = [];
  for (let i = 0; i < outputCount; i++) {
    const value = reader.uint64('output value');
    const script = reader.varBytes('scriptPubKey');
    outputs.push({ value, script });
  }
  const bodyEnd = reader.position;
  if (flags & 1) {
    hasWitness = true;
    for (const input of inputs) {
      const items = reader.varInt('witness item count');
      for (let i = 0; i < items; i++) input.witness.push(reader.varBytes('witness item'));
    }
  }
  if (flags & 8) {
    const mwebTxPresent = reader.uint8('MWEB tx marker');
    if (mwebTxPresent !== 0) throw new ParseError('MWEB transactions are not decoded');
    isHogEx = true;
  }
  if (flags & ~(1 | 8)) throw new ParseError(`unknown transaction flags ${flags}`);
  const lockTime = reader.uint32('lock time');
  const end = reader.position;

  const raw = Buffer.from(reader.slice(start, end));
  const legacy =
    flags === 0
      ? raw
      : Buffer.concat([raw.subarray(0, 4), reader.slice(bodyStart, bodyEnd), raw.subarray(raw.length - 4)]);
  return { raw, txid: sha256d(legacy), version, inputs, outputs, lockTime, hasWitness, isHogEx };
}

export function parseBlock(bytes: Uint8Array): ParsedBlock {
  const reader = new ByteReader(bytes);
  const headerBytes = Buffer.from(reader.bytes(HEADER_SIZE, 'header'));
  const count = reader.varInt('transaction count');
  if (count === 0) throw new ParseError('a block has at least one transaction');
  const transactions: ParsedTransaction[] = [];
  for (let i = 0; i < count; i++) transactions.push(readTransaction(reader));
  const block: ParsedBlock = { header: parseHeader(headerBytes), headerBytes, transactions };
  const last = transactions[transactions.length - 1];
  if (transactions.length >= 2 && last?.isHogEx) {
    if (reader.uint8('MWEB marker') === MWEB_PRESENT)
      block.mweb = Buffer.from(reader.bytes(reader.remaining, 'MWEB block'));
  }
  if (reader.remaining !== 0) throw new ParseError(`${reader.remaining} unexpected bytes after the block`);
  return block;
}
