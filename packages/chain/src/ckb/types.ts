/**
 * CKB's JSON-RPC shapes as the node sends and takes them (nervosnetwork/ckb util/jsonrpc-types/src/
 * blockchain.rs and block_template.rs): snake_case fields, integers as CKB uint strings, bytes as 0x-hex.
 * These are wire types; `template.ts` checks a node's reply against them field by field.
 */

export type CkbHashType = 'data' | 'type' | 'data1' | 'data2';

export interface CkbJsonScript {
  code_hash: string;
  hash_type: CkbHashType;
  args: string;
}

export interface CkbJsonOutPoint {
  tx_hash: string;
  index: string;
}

export interface CkbJsonCellInput {
  since: string;
  previous_output: CkbJsonOutPoint;
}

export interface CkbJsonCellOutput {
  capacity: string;
  lock: CkbJsonScript;
  type: CkbJsonScript | null;
}

export interface CkbJsonCellDep {
  out_point: CkbJsonOutPoint;
  dep_type: 'code' | 'dep_group';
}

export interface CkbJsonTransaction {
  version: string;
  cell_deps: CkbJsonCellDep[];
  header_deps: string[];
  inputs: CkbJsonCellInput[];
  outputs: CkbJsonCellOutput[];
  outputs_data: string[];
  witnesses: string[];
}

/** A header as a block carries it (`Header`): no hash. */
export interface CkbJsonHeader {
  version: string;
  compact_target: string;
  timestamp: string;
  number: string;
  epoch: string;
  parent_hash: string;
  transactions_root: string;
  proposals_hash: string;
  extra_hash: string;
  dao: string;
  nonce: string;
}

/** A header as the Chain module returns it (`HeaderView`): with its hash. */
export interface CkbJsonHeaderView extends CkbJsonHeader {
  hash: string;
}

export interface CkbJsonUncleBlock {
  header: CkbJsonHeader;
  proposals: string[];
}

/** The block `submit_block` takes. `extension` is present exactly when the template had one. */
export interface CkbJsonBlock {
  header: CkbJsonHeader;
  uncles: CkbJsonUncleBlock[];
  transactions: CkbJsonTransaction[];
  proposals: string[];
  extension?: string;
}

export interface CkbJsonUncleTemplate {
  hash: string;
  required: boolean;
  proposals: string[];
  header: CkbJsonHeader;
}

export interface CkbJsonTransactionTemplate {
  hash: string;
  required: boolean;
  cycles?: string | null;
  depends?: string[] | null;
  data: CkbJsonTransaction;
}

export interface CkbJsonCellbaseTemplate {
  hash: string;
  cycles?: string | null;
  data: CkbJsonTransaction;
}

/** `get_block_template`'s result. */
export interface CkbJsonBlockTemplate {
  version: string;
  compact_target: string;
  current_time: string;
  number: string;
  epoch: string;
  parent_hash: string;
  cycles_limit: string;
  bytes_limit: string;
  uncles_count_limit: string;
  uncles: CkbJsonUncleTemplate[];
  transactions: CkbJsonTransactionTemplate[];
  proposals: string[];
  cellbase: CkbJsonCellbaseTemplate;
  work_id: string;
  dao: string;
  /** Absent when the node sends none (or null). */
  extension?: string;
}

/** `get_block_economic_state`'s result (shannons as CKB uints). */
export interface CkbJsonBlockEconomicState {
  issuance: { primary: string; secondary: string };
  miner_reward: { primary: string; secondary: string; committed: string; proposal: string };
  txs_fee: string;
  finalized_at: string;
}
