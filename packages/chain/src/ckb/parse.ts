/**
 * Strict readers for CKB JSON (types.ts): each checks every field a Lodestone component relies on and
 * returns a normalized copy (hex lower-cased), or throws CkbEncodingError naming the field.
 */
import { type CkbRawHeader, ckbBlockHash, encodeCkbRawHeader } from '@lodestone/pow';
import type {
  CkbHashType,
  CkbJsonBlock,
  CkbJsonBlockEconomicState,
  CkbJsonBlockTemplate,
  CkbJsonCellDep,
  CkbJsonCellInput,
  CkbJsonCellOutput,
  CkbJsonHeader,
  CkbJsonHeaderView,
  CkbJsonOutPoint,
  CkbJsonScript,
  CkbJsonTransaction,
  CkbJsonUncleBlock,
} from './types.js';
import {
  bytesToCkbHex,
  CkbEncodingError,
  ckbHexToBytes,
  parseCkbBytes,
  parseCkbHash,
  parseCkbUint,
  parseCkbUint32,
} from './uint.js';

const HASH_TYPES: readonly CkbHashType[] = ['data', 'type', 'data1', 'data2'];
const PROPOSAL_ID_BYTES = 10;

function object(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CkbEncodingError(field, 'expected an object');
  }
  return value as Record<string, unknown>;
}

function array<T>(value: unknown, field: string, item: (v: unknown, f: string) => T): T[] {
  if (!Array.isArray(value)) throw new CkbEncodingError(field, 'expected an array');
  return value.map((v, i) => item(v, `${field}[${i}]`));
}

function boolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new CkbEncodingError(field, 'expected a boolean');
  return value;
}

/** A field the node may leave out or send as null. */
function nullable<T>(value: unknown, field: string, item: (v: unknown, f: string) => T): T | null {
  return value === undefined || value === null ? null : item(value, field);
}

function uint(bits: 32 | 64 | 128) {
  return (value: unknown, field: string): string => `0x${parseCkbUint(value, field, bits).toString(16)}`;
}
const u32 = uint(32);
const u64 = uint(64);
const u128 = uint(128);
const bytes = (value: unknown, field: string): string => parseCkbBytes(value, field);
const proposalId = (value: unknown, field: string): string => parseCkbBytes(value, field, PROPOSAL_ID_BYTES);

export function parseScript(value: unknown, field: string): CkbJsonScript {
  const o = object(value, field);
  const hashType = o.hash_type;
  if (typeof hashType !== 'string' || !HASH_TYPES.includes(hashType as CkbHashType)) {
    throw new CkbEncodingError(`${field}.hash_type`, `expected one of ${HASH_TYPES.join(', ')}`);
  }
  return {
    code_hash: parseCkbHash(o.code_hash, `${field}.code_hash`),
    hash_type: hashType as CkbHashType,
    args: bytes(o.args, `${field}.args`),
  };
}

function outPoint(value: unknown, field: string): CkbJsonOutPoint {
  const o = object(value, field);
  return { tx_hash: parseCkbHash(o.tx_hash, `${field}.tx_hash`), index: u32(o.index, `${field}.index`) };
}

function cellDep(value: unknown, field: string): CkbJsonCellDep {
  const o = object(value, field);
  if (o.dep_type !== 'code' && o.dep_type !== 'dep_group') {
    throw new CkbEncodingError(`${field}.dep_type`, 'expected code or dep_group');
  }
  return { out_point: outPoint(o.out_point, `${field}.out_point`), dep_type: o.dep_type };
}

function cellInput(value: unknown, field: string): CkbJsonCellInput {
  const o = object(value, field);
  return {
    since: u64(o.since, `${field}.since`),
    previous_output: outPoint(o.previous_output, `${field}.previous_output`),
  };
}

function cellOutput(value: unknown, field: string): CkbJsonCellOutput {
  const o = object(value, field);
  return {
    capacity: u64(o.capacity, `${field}.capacity`),
    lock: parseScript(o.lock, `${field}.lock`),
    type: o.type === null || o.type === undefined ? null : parseScript(o.type, `${field}.type`),
  };
}

export function parseTransaction(value: unknown, field: string): CkbJsonTransaction {
  const o = object(value, field);
  const tx: CkbJsonTransaction = {
    version: u32(o.version, `${field}.version`),
    cell_deps: array(o.cell_deps, `${field}.cell_deps`, cellDep),
    header_deps: array(o.header_deps, `${field}.header_deps`, parseCkbHash),
    inputs: array(o.inputs, `${field}.inputs`, cellInput),
    outputs: array(o.outputs, `${field}.outputs`, cellOutput),
    outputs_data: array(o.outputs_data, `${field}.outputs_data`, bytes),
    witnesses: array(o.witnesses, `${field}.witnesses`, bytes),
  };
  if (tx.outputs.length !== tx.outputs_data.length) {
    throw new CkbEncodingError(field, `${tx.outputs.length} outputs but ${tx.outputs_data.length} outputs_data`);
  }
  return tx;
}

export function parseHeader(value: unknown, field: string): CkbJsonHeader {
  const o = object(value, field);
  return {
    version: u32(o.version, `${field}.version`),
    compact_target: u32(o.compact_target, `${field}.compact_target`),
    timestamp: u64(o.timestamp, `${field}.timestamp`),
    number: u64(o.number, `${field}.number`),
    epoch: u64(o.epoch, `${field}.epoch`),
    parent_hash: parseCkbHash(o.parent_hash, `${field}.parent_hash`),
    transactions_root: parseCkbHash(o.transactions_root, `${field}.transactions_root`),
    proposals_hash: parseCkbHash(o.proposals_hash, `${field}.proposals_hash`),
    extra_hash: parseCkbHash(o.extra_hash, `${field}.extra_hash`),
    dao: parseCkbHash(o.dao, `${field}.dao`),
    nonce: u128(o.nonce, `${field}.nonce`),
  };
}

export function parseHeaderView(value: unknown, field: string): CkbJsonHeaderView {
  const o = object(value, field);
  return { ...parseHeader(o, field), hash: parseCkbHash(o.hash, `${field}.hash`) };
}

function uncleBlock(value: unknown, field: string): CkbJsonUncleBlock {
  const o = object(value, field);
  return {
    header: parseHeader(o.header, `${field}.header`),
    proposals: array(o.proposals, `${field}.proposals`, proposalId),
  };
}

export function parseBlock(value: unknown, field = 'block'): CkbJsonBlock {
  const o = object(value, field);
  const block: CkbJsonBlock = {
    header: parseHeader(o.header, `${field}.header`),
    uncles: array(o.uncles, `${field}.uncles`, uncleBlock),
    transactions: array(o.transactions, `${field}.transactions`, parseTransaction),
    proposals: array(o.proposals, `${field}.proposals`, proposalId),
  };
  if (o.extension !== undefined && o.extension !== null) block.extension = bytes(o.extension, `${field}.extension`);
  return block;
}

/** Checks a `get_block_template` result; the returned copy is normalized and complete. */
/** An uncle or transaction a template lists: its hash, whether the block must include it, then its own `fields`. */
function templateItem<T>(fields: (item: Record<string, unknown>, field: string) => T) {
  return (value: unknown, field: string) => {
    const item = object(value, field);
    const required = boolean(item.required, `${field}.required`);
    return { hash: parseCkbHash(item.hash, `${field}.hash`), required, ...fields(item, field) };
  };
}

export function parseBlockTemplate(value: unknown, field = 'template'): CkbJsonBlockTemplate {
  const o = object(value, field);
  const cellbase = object(o.cellbase, `${field}.cellbase`);
  const template: CkbJsonBlockTemplate = {
    version: u32(o.version, `${field}.version`),
    compact_target: u32(o.compact_target, `${field}.compact_target`),
    current_time: u64(o.current_time, `${field}.current_time`),
    number: u64(o.number, `${field}.number`),
    epoch: u64(o.epoch, `${field}.epoch`),
    parent_hash: parseCkbHash(o.parent_hash, `${field}.parent_hash`),
    cycles_limit: u64(o.cycles_limit, `${field}.cycles_limit`),
    bytes_limit: u64(o.bytes_limit, `${field}.bytes_limit`),
    uncles_count_limit: u64(o.uncles_count_limit, `${field}.uncles_count_limit`),
    uncles: array(
      o.uncles,
      `${field}.uncles`,
      templateItem((u, f) => ({
        proposals: array(u.proposals, `${f}.proposals`, proposalId),
        header: parseHeader(u.header, `${f}.header`),
      })),
    ),
    transactions: array(
      o.transactions,
      `${field}.transactions`,
      templateItem((t, f) => ({
        cycles: nullable(t.cycles, `${f}.cycles`, u64),
        depends: nullable(t.depends, `${f}.depends`, (d, df) => array(d, df, u64)),
        data: parseTransaction(t.data, `${f}.data`),
      })),
    ),
    proposals: array(o.proposals, `${field}.proposals`, proposalId),
    cellbase: {
      hash: parseCkbHash(cellbase.hash, `${field}.cellbase.hash`),
      cycles: nullable(cellbase.cycles, `${field}.cellbase.cycles`, u64),
      data: parseTransaction(cellbase.data, `${field}.cellbase.data`),
    },
    work_id: u64(o.work_id, `${field}.work_id`),
    dao: parseCkbHash(o.dao, `${field}.dao`),
  };
  if (o.extension !== undefined && o.extension !== null) template.extension = bytes(o.extension, `${field}.extension`);
  return template;
}

export function parseEconomicState(value: unknown, field = 'economic_state'): CkbJsonBlockEconomicState {
  const o = object(value, field);
  const issuance = object(o.issuance, `${field}.issuance`);
  const reward = object(o.miner_reward, `${field}.miner_reward`);
  return {
    issuance: {
      primary: u64(issuance.primary, `${field}.issuance.primary`),
      secondary: u64(issuance.secondary, `${field}.issuance.secondary`),
    },
    miner_reward: {
      primary: u64(reward.primary, `${field}.miner_reward.primary`),
      secondary: u64(reward.secondary, `${field}.miner_reward.secondary`),
      committed: u64(reward.committed, `${field}.miner_reward.committed`),
      proposal: u64(reward.proposal, `${field}.miner_reward.proposal`),
    },
    txs_fee: u64(o.txs_fee, `${field}.txs_fee`),
    finalized_at: parseCkbHash(o.finalized_at, `${field}.finalized_at`),
  };
}

/** The typed raw header and nonce of a (checked) JSON header. */
export function rawHeaderOf(header: CkbJsonHeader): { raw: CkbRawHeader; nonce: bigint } {
  return {
    raw: {
      version: parseCkbUint32(header.version, 'version'),
      compactTarget: parseCkbUint32(header.compact_target, 'compact_target'),
      timestamp: parseCkbUint(header.timestamp, 'timestamp'),
      number: parseCkbUint(header.number, 'number'),
      epoch: parseCkbUint(header.epoch, 'epoch'),
      parentHash: ckbHexToBytes(header.parent_hash),
      transactionsRoot: ckbHexToBytes(header.transactions_root),
      proposalsHash: ckbHexToBytes(header.proposals_hash),
      extraHash: ckbHexToBytes(header.extra_hash),
      dao: ckbHexToBytes(header.dao),
    },
    nonce: parseCkbUint(header.nonce, 'nonce', 128),
  };
}

/** The block hash of a (checked) JSON header: ckbhash(RawHeader ‖ nonce). */
export function headerHash(header: CkbJsonHeader): string {
  const { raw, nonce } = rawHeaderOf(header);
  return bytesToCkbHex(ckbBlockHash(encodeCkbRawHeader(raw), nonce));
}
