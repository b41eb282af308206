/**
 * The kaspad RPC objects the pool uses, as the wRPC JSON encoding writes them (serde, camelCase:
 * kaspanet/rusty-kaspa rpc/core/src/model/{header,block,tx,message}.rs): hashes as 64 hex digits, u64
 * fields as JSON integers (bigints here, see ./json.ts), `blueWork` as big-endian hex, script public
 * keys as hex of the version (u16 big-endian) followed by the script, payloads and signature scripts
 * as hex. A reply of another shape is an RpcError of kind `malformed` naming the field.
 */
import { Shape } from '../rpc/shape.js';

export const U64_MAX = (1n << 64n) - 1n;

/** RpcRawHeader: the header of a template and of a block submitted (no cached hash). */
export interface KaspaRawHeader {
  version: number;
  /** Parents per level, expanded (level 0 = direct parents), hex hashes. */
  parentsByLevel: string[][];
  hashMerkleRoot: string;
  acceptedIdMerkleRoot: string;
  utxoCommitment: string;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
  bits: number;
  nonce: bigint;
  daaScore: bigint;
  blueWork: bigint;
  blueScore: bigint;
  pruningPoint: string;
}

export interface KaspaTransactionOutput {
  value: bigint;
  /** Hex: script version (u16 big-endian) ‖ script. */
  scriptPublicKey: string;
  /** With verbose data (getBlock): the output's address. */
  address?: string;
}

/** The parts of a transaction the pool reads (the raw object travels on untouched). */
export interface KaspaTransaction {
  version: number;
  inputCount: number;
  outputs: KaspaTransactionOutput[];
  subnetworkId: string;
  /** Hex. */
  payload: string;
}

/** A template's or a submitted block: the typed view and the JSON object as the node wrote it. */
export interface KaspaRawBlock {
  header: KaspaRawHeader;
  transactions: KaspaTransaction[];
  /** The block object exactly as received (bigints kept), for submitBlock. */
  raw: Record<string, unknown>;
}

export interface KaspaBlockTemplate {
  block: KaspaRawBlock;
  isSynced: boolean;
}

/** RpcBlockVerboseData: where a block stands in the DAG (getBlock). */
export interface KaspaBlockVerboseData {
  hash: string;
  selectedParentHash: string;
  blueScore: bigint;
  isHeaderOnly: boolean;
  isChainBlock: boolean;
  childrenHashes: string[];
  mergeSetBluesHashes: string[];
  mergeSetRedsHashes: string[];
}

/** RpcBlock from getBlock: header with its hash, transactions, verbose data. */
export interface KaspaBlock {
  hash: string;
  header: KaspaRawHeader;
  transactions: KaspaTransaction[];
  verboseData: KaspaBlockVerboseData | undefined;
}

export interface KaspaDagInfo {
  network: string;
  blockCount: bigint;
  headerCount: bigint;
  tipHashes: string[];
  virtualParentHashes: string[];
  pruningPointHash: string;
  virtualDaaScore: bigint;
  sink: string;
  pastMedianTime: bigint;
  difficulty: number;
}

export interface KaspaServerInfo {
  serverVersion: string;
  networkId: string;
  hasUtxoIndex: boolean;
  isSynced: boolean;
  virtualDaaScore: bigint;
}

export type KaspaSubmitReport = { type: 'success' } | { type: 'reject'; reason: string };

// ---------------------------------------------------------------------------------------------------
// Readers

/** The checks `KaspaShape.fields` can apply to a field, by name, and the type each gives. */
interface KaspaFieldTypes {
  string: string;
  boolean: boolean;
  number: number;
  u64: bigint;
  hash: string;
  hashes: string[];
}

/** Shape checks for kaspad's values. */
export class KaspaShape extends Shape {
  /**
   * Reads the fields `spec` names from `object`, each with the check named beside it, in the order
   * listed; an error names the field as `prefix` + its name.
   */
  fields<S extends Record<string, keyof KaspaFieldTypes>>(
    object: Record<string, unknown>,
    spec: S,
    prefix = '',
  ): { [K in keyof S]: KaspaFieldTypes[S[K]] } {
    const read: Record<string, unknown> = {};
    for (const [name, check] of Object.entries(spec)) read[name] = this[check](object[name], `${prefix}${name}`);
    return read as { [K in keyof S]: KaspaFieldTypes[S[K]] };
  }

  u64(value: unknown, field: string): bigint {
    if (typeof value === 'bigint' && value >= 0n && value <= U64_MAX) return value;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    return this.fail(`${field} is not a u64`);
  }

  hash(value: unknown, field: string): string {
    return this.hex(value, field, 32);
  }

  /** Hex of any even length (empty allowed). */
  bytes(value: unknown, field: string): string {
    const s = this.string(value, field);
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(s)) this.fail(`${field} is not hex`);
    return s.toLowerCase();
  }

  hashes(value: unknown, field: string): string[] {
    return this.array(value, field).map((h, i) => this.hash(h, `${field}[${i}]`));
  }
}

export function readRawHeader(s: KaspaShape, value: unknown, field = 'header'): KaspaRawHeader {
  const h = s.object(value, field);
  const blueWork = s.string(h.blueWork, `${field}.blueWork`);
  if (!/^[0-9a-fA-F]{1,48}$/.test(blueWork)) s.fail(`${field}.blueWork is not hex of at most 24 bytes`);
  return {
    version: s.integer(h.version, `${field}.version`, 0, 0xffff),
    parentsByLevel: s
      .array(h.parentsByLevel, `${field}.parentsByLevel`)
      .map((level, i) => s.hashes(level, `${field}.parentsByLevel[${i}]`)),
    hashMerkleRoot: s.hash(h.hashMerkleRoot, `${field}.hashMerkleRoot`),
    acceptedIdMerkleRoot: s.hash(h.acceptedIdMerkleRoot, `${field}.acceptedIdMerkleRoot`),
    utxoCommitment: s.hash(h.utxoCommitment, `${field}.utxoCommitment`),
    timestamp: s.u64(h.timestamp, `${field}.timestamp`),
    bits: s.integer(h.bits, `${field}.bits`, 0, 0xffffffff),
    nonce: s.u64(h.nonce, `${field}.nonce`),
    daaScore: s.u64(h.daaScore, `${field}.daaScore`),
    blueWork: BigInt(`0x${blueWork}`),
    blueScore: s.u64(h.blueScore, `${field}.blueScore`),
    pruningPoint: s.hash(h.pruningPoint, `${field}.pruningPoint`),
  };
}

export function readTransaction(s: KaspaShape, value: unknown, field: string): KaspaTransaction {
  const t = s.object(value, field);
  return {
    version: s.integer(t.version, `${field}.version`, 0, 0xffff),
    inputCount: s.array(t.inputs, `${field}.inputs`).length,
    outputs: s.array(t.outputs, `${field}.outputs`).map((o, i) => {
      const where = `${field}.outputs[${i}]`;
      const output = s.object(o, where);
      const scriptPublicKey = s.bytes(output.scriptPublicKey, `${where}.scriptPublicKey`);
      if (scriptPublicKey.length < 4) s.fail(`${where}.scriptPublicKey has no version`);
      const verbose = output.verboseData === undefined || output.verboseData === null ? undefined : output.verboseData;
      const address = verbose
        ? s.string(s.object(verbose, `${where}.verboseData`).scriptPublicKeyAddress, `${where}.verboseData.address`)
        : undefined;
      return { value: s.u64(output.value, `${where}.value`), scriptPublicKey, ...(address && { address }) };
    }),
    subnetworkId: s.hex(t.subnetworkId, `${field}.subnetworkId`, 20),
    payload: s.bytes(t.payload, `${field}.payload`),
  };
}

export function readRawBlock(s: KaspaShape, value: unknown, field = 'block'): KaspaRawBlock {
  const b = s.object(value, field);
  return {
    header: readRawHeader(s, b.header, `${field}.header`),
    transactions: s
      .array(b.transactions, `${field}.transactions`)
      .map((t, i) => readTransaction(s, t, `${field}.transactions[${i}]`)),
    raw: b,
  };
}

export function readBlockTemplate(result: unknown, daemon?: string): KaspaBlockTemplate {
  const s = new KaspaShape('getBlockTemplate', daemon);
  const r = s.object(result, 'result');
  const block = readRawBlock(s, r.block);
  if (block.transactions.length === 0) s.fail('block has no coinbase transaction');
  return { block, isSynced: s.boolean(r.isSynced, 'isSynced') };
}

/** KaspaBlockVerboseData's fields, each with its check. */
const VERBOSE_DATA_FIELDS = {
  hash: 'hash',
  selectedParentHash: 'hash',
  blueScore: 'u64',
  isHeaderOnly: 'boolean',
  isChainBlock: 'boolean',
  childrenHashes: 'hashes',
  mergeSetBluesHashes: 'hashes',
  mergeSetRedsHashes: 'hashes',
} as const;

export function readBlock(result: unknown, daemon?: string): KaspaBlock {
  const s = new KaspaShape('getBlock', daemon);
  const b = s.object(s.object(result, 'result').block, 'block');
  const h = s.object(b.header, 'block.header');
  const verbose =
    b.verboseData === undefined || b.verboseData === null ? undefined : s.object(b.verboseData, 'verboseData');
  return {
    hash: s.hash(h.hash, 'block.header.hash'),
    header: readRawHeader(s, h, 'block.header'),
    transactions: s
      .array(b.transactions ?? [], 'block.transactions')
      .map((t, i) => readTransaction(s, t, `block.transactions[${i}]`)),
    verboseData: verbose && s.fields(verbose, VERBOSE_DATA_FIELDS, 'verboseData.'),
  };
}

export function readDagInfo(result: unknown, daemon?: string): KaspaDagInfo {
  const s = new KaspaShape('getBlockDagInfo', daemon);
  return s.fields(s.object(result, 'result'), {
    network: 'string',
    blockCount: 'u64',
    headerCount: 'u64',
    tipHashes: 'hashes',
    virtualParentHashes: 'hashes',
    pruningPointHash: 'hash',
    virtualDaaScore: 'u64',
    sink: 'hash',
    pastMedianTime: 'u64',
    difficulty: 'number',
  });
}

export function readServerInfo(result: unknown, daemon?: string): KaspaServerInfo {
  const s = new KaspaShape('getServerInfo', daemon);
  return s.fields(s.object(result, 'result'), {
    serverVersion: 'string',
    networkId: 'string',
    hasUtxoIndex: 'boolean',
    isSynced: 'boolean',
    virtualDaaScore: 'u64',
  });
}

/** SubmitBlockReport: `{type: "success"}` or `{type: "reject", reason: "blockInvalid" | "isInIBD" | "routeIsFull"}`. */
export function readSubmitReport(result: unknown, daemon?: string): KaspaSubmitReport {
  const s = new KaspaShape('submitBlock', daemon);
  const report = s.object(s.object(result, 'result').report, 'report');
  const type = s.string(report.type, 'report.type');
  if (type === 'success') return { type };
  if (type === 'reject') return { type, reason: s.string(report.reason, 'report.reason') };
  return s.fail(`report.type ${JSON.stringify(type)} is neither success nor reject`);
}

/** The words kaspad's own messages use for its reject reasons (rpc/core/src/model/message.rs). */
export const SUBMIT_REJECT_MESSAGES: Readonly<Record<string, string>> = {
  blockInvalid: 'block is invalid',
  isInIBD: 'node is not synced',
  routeIsFull: 'route is full',
};
