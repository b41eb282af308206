/**
 * A stand-in CKB node for tests (no ckb binary can be installed on these machines). It speaks the real
 * transport — JSON-RPC 2.0 over HTTP POST, CKB's uint encoding, CKB's error codes and messages
 * (nervosnetwork/ckb rpc/src/error.rs, verification/src/error.rs) — and keeps a real chain: headers with
 * Eaglesong proof of work, cellbases that pay the miner of the block eleven back, uncles, an extension,
 * forks and the longest-chain rule. Submitted blocks are checked with its own molecule encoder and merkle
 * code (ckbMolecule.ts), not the pool's.
 *
 * For wallets it keeps the live cells of the canonical chain (ckbCells.ts), answers the indexer's get_cells
 * and get_cells_capacity, get_live_cell and get_transaction, and checks what send_transaction is sent with
 * its own verifier (ckbTxVerifier.ts, proven on a real mainnet transaction): inputs live and not taken by
 * the pool, outputs covering their occupied capacity, the fee rate, the sighash-all signature. Accepted
 * transactions are committed by the next block `mine()` finds (and by a miner's block built on a template).
 *
 * Simplifications, said plainly: the difficulty is fixed (the dev chain's 0x20010000 by default: one
 * hash in 256 is a block) or set per block by the caller's `retarget` — never CKB's epoch rule — the DAO field and the extension are stand-in values
 * derived from the parent (checked for equality, not computed as the node does), the timestamp check is
 * against the parent rather than the median of 37, the only script run is secp256k1-blake160-sighash-all,
 * pool transactions spend committed cells only (no chains inside the pool), and the fork choice counts
 * blocks (the same as total difficulty at a fixed target).
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ckbBlockHash, ckbPowHash, ckbPowMessage, eaglesong, encodeCkbRawHeader } from '@lodestone/pow';
import { parseBlock, parseScript, parseTransaction, rawHeaderOf } from '../ckb/parse.js';
import type {
  CkbJsonBlock,
  CkbJsonBlockTemplate,
  CkbJsonHeader,
  CkbJsonHeaderView,
  CkbJsonOutPoint,
  CkbJsonScript,
  CkbJsonTransaction,
} from '../ckb/types.js';
import { CkbEncodingError, parseCkbHash, parseCkbUint } from '../ckb/uint.js';
import {
  type ChainCells,
  checkPoolTransaction,
  type LiveCell,
  outPointKey,
  PoolRefusal,
  replayChain,
  SECP256K1_BLAKE160_CODE_HASH,
} from './ckbCells.js';
import { blockCommitments, encodeCellbaseWitness, encodeRawTransaction, hashHex } from './ckbMolecule.js';

const ZERO = `0x${'00'.repeat(32)}`;
const hex = (n: bigint | number): string => `0x${BigInt(n).toString(16)}`;
const bufHex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;

export { SECP256K1_BLAKE160_CODE_HASH };

/** A lock paying someone else: what the stand-in's own blocks ("other miners") pay to. */
export const OTHER_MINER_LOCK: CkbJsonScript = {
  code_hash: SECP256K1_BLAKE160_CODE_HASH,
  hash_type: 'type',
  args: `0x${'11'.repeat(20)}`,
};

export interface CkbNodeOptions {
  /** The [block_assembler] lock; null starts the node with the Miner module disabled, as ckb does without one. */
  blockAssembler?: { lock: CkbJsonScript; message?: string } | null;
  /** Compact target of genesis, and of every block unless `retarget` says otherwise (default 0x20010000, the dev chain's genesis target). */
  compactTarget?: number;
  /**
   * The compact target of a block after `parent` (its number and timestamp, ms) with timestamp
   * `timestampMs`: the demo network retargets every block with it (ASERT); tests leave the target
   * fixed. Not CKB's epoch rule.
   */
  retarget?: (parent: { number: number; timestampMs: number }, timestampMs: number) => number;
  /** Transactions in each template besides the cellbase (default 2). */
  transactions?: number;
  /** Proposal short ids in each template (default 2). */
  proposals?: number;
  /** Whether blocks carry an extension (default true, as mainnet since the 2023 hard fork). */
  extension?: boolean;
  /** Blocks until a reward is finalized (default 11: ProposalWindow.farthest + 1). */
  finalizationDelay?: number;
  /** Blocks per epoch (default 1000). */
  epochLength?: number;
  /** Primary and secondary issuance per block, shannons. */
  primaryReward?: bigint;
  secondaryReward?: bigint;
  /** URLs the block assembler POSTs each new template to (ckb.toml `[block_assembler] notify`). */
  notify?: readonly string[];
  /** Epoch ms clock. */
  now?: () => number;
  /** tx_pool.min_fee_rate in shannons per 1000 bytes (default 1000, as ckb.toml). */
  minFeeRate?: bigint;
  /** What get_fee_rate_statistics answers (default null: a chain without recent fee history). */
  feeRateStatistics?: { mean: bigint; median: bigint } | null;
  /** The out point of this chain's secp256k1 dep group (default STAND_IN_SECP256K1_DEP_GROUP). */
  secp256k1DepGroup?: CkbJsonOutPoint;
}

/**
 * The stand-in chain's secp256k1 dep group cell (a dev chain has its own, as `ckb list-hashes` shows; this
 * one is the stand-in's, so a wallet that assumes mainnet's or testnet's is refused).
 */
export const STAND_IN_SECP256K1_DEP_GROUP: CkbJsonOutPoint = {
  tx_hash: hashHex(Buffer.from('stand-in secp256k1 dep group')),
  index: '0x0',
};

interface StoredBlock {
  hash: string;
  number: number;
  header: CkbJsonHeader;
  block: CkbJsonBlock;
  txHashes: string[];
  /** Whose reward this block earns (its cellbase witness lock). */
  minerLock: CkbJsonScript;
  fees: bigint;
}

/** A submit_block call as the node saw it. */
export interface CkbSubmission {
  workId: string;
  /** The block hash when accepted. */
  hash?: string;
  /** The node's error message when refused. */
  error?: string;
}

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: string | null = null,
  ) {
    super(message);
  }
}

const POW_ERROR =
  'Invalid: Header(Pow(InvalidNonce: please set logger.filter to "info,ckb-pow=debug" for detailed PoW verification information))';
const invalid = (message: string): RpcFailure => new RpcFailure(-3, `Invalid: ${message}`, message);

export class CkbStandInNode extends EventEmitter {
  readonly submissions: CkbSubmission[] = [];
  readonly notifyErrors: string[] = [];
  private readonly blocks = new Map<string, StoredBlock>();
  private canonical: string[] = [];
  private readonly options: Required<
    Omit<CkbNodeOptions, 'blockAssembler' | 'notify' | 'feeRateStatistics' | 'retarget'>
  > & {
    retarget: CkbNodeOptions['retarget'];
    blockAssembler: CkbNodeOptions['blockAssembler'];
    notify: readonly string[];
    feeRateStatistics: CkbNodeOptions['feeRateStatistics'];
  };
  /** Transactions accepted by send_transaction and not yet committed, by hash. */
  private readonly pool = new Map<string, { tx: CkbJsonTransaction; fee: bigint }>();
  /** Pool transactions dropped because a committed transaction spent their inputs: the reason get_transaction gives. */
  private readonly rejected = new Map<string, string>();
  private cellsAt: { tip: string; cells: ChainCells } | undefined;
  private faucetSerial = 0;
  private mempool: { tx: CkbJsonTransaction; hash: string; fee: bigint }[] = [];
  private mempoolSerial = 0;
  private workId = 0;
  private current: { key: string; template: CkbJsonBlockTemplate } | undefined;
  private server: Server | undefined;
  private port = 0;

  constructor(options: CkbNodeOptions = {}) {
    super();
    this.options = {
      blockAssembler:
        options.blockAssembler === undefined
          ? { lock: { code_hash: SECP256K1_BLAKE160_CODE_HASH, hash_type: 'type', args: `0x${'aa'.repeat(20)}` } }
          : options.blockAssembler,
      compactTarget: options.compactTarget ?? 0x20010000,
      retarget: options.retarget,
      transactions: options.transactions ?? 2,
      proposals: options.proposals ?? 2,
      extension: options.extension ?? true,
      finalizationDelay: options.finalizationDelay ?? 11,
      epochLength: options.epochLength ?? 1000,
      primaryReward: options.primaryReward ?? 0x18ce922bcan,
      secondaryReward: options.secondaryReward ?? 0x17b93605n,
      notify: options.notify ?? [],
      now: options.now ?? Date.now,
      minFeeRate: options.minFeeRate ?? 1000n,
      feeRateStatistics: options.feeRateStatistics ?? null,
      secp256k1DepGroup: options.secp256k1DepGroup ?? STAND_IN_SECP256K1_DEP_GROUP,
    };
    this.storeGenesis();
    for (let i = 0; i < this.options.transactions; i++) this.addTransaction();
  }

  /** http://127.0.0.1:<port>/ once listening. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  async listen(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.port = address.port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  // -------------------------------------------------------------------------------------------------
  // Test controls

  tip(): { hash: string; number: number } {
    const hash = this.canonical[this.canonical.length - 1] as string;
    return { hash, number: this.canonical.length - 1 };
  }

  /** The canonical block hash at a height, if any. */
  hashAt(number: number): string | undefined {
    return this.canonical[number];
  }

  isCanonical(hash: string): boolean {
    const block = this.blocks.get(hash);
    return block !== undefined && this.canonical[block.number] === hash;
  }

  /** A transaction enters the pool: the next template has it (same parent, new work_id). */
  addTransaction(): string {
    const serial = ++this.mempoolSerial;
    const tx = syntheticTransaction(serial);
    const hash = hashHex(encodeRawTransaction(tx));
    this.mempool.push({ tx, hash, fee: 1000n + BigInt(serial) });
    this.current = undefined;
    return hash;
  }

  /** The template get_block_template would return now. */
  template(): CkbJsonBlockTemplate {
    const lock = this.options.blockAssembler?.lock;
    if (!lock) throw new Error('the stand-in has no block assembler');
    return this.templateFor(this.tip().hash, lock, this.options.blockAssembler?.message ?? '0x', true);
  }

  /**
   * Other miners find `count` blocks on the tip (real proof of work at the node's target); the first one
   * commits every transaction of the pool.
   */
  mine(count = 1): string[] {
    const hashes: string[] = [];
    for (let i = 0; i < count; i++) {
      const pending = [...this.pool.values()].map((p) => p.tx);
      hashes.push(this.mineOn(this.tip().hash, 0, pending));
    }
    return hashes;
  }

  /**
   * Funds `lock` with one cell per capacity (plain unless `cell` gives a type script or data), committed in
   * a new block by a faucet transaction (its input is not checked). Returns the new cells' out points.
   */
  fund(
    lock: CkbJsonScript,
    capacities: readonly bigint[],
    cell: { type?: CkbJsonScript; data?: string } = {},
  ): CkbJsonOutPoint[] {
    const serial = ++this.faucetSerial;
    const tx: CkbJsonTransaction = {
      version: '0x0',
      cell_deps: [],
      header_deps: [],
      inputs: [
        { since: '0x0', previous_output: { tx_hash: hashHex(Buffer.from(`stand-in faucet ${serial}`)), index: '0x0' } },
      ],
      outputs: capacities.map((capacity) => ({ capacity: hex(capacity), lock, type: cell.type ?? null })),
      outputs_data: capacities.map(() => cell.data ?? '0x'),
      witnesses: [],
    };
    const hash = hashHex(encodeRawTransaction(tx));
    this.mineOn(this.tip().hash, 0, [tx]);
    return capacities.map((_, i) => ({ tx_hash: hash, index: hex(i) }));
  }

  /** Someone else's transaction spending these cells is committed in a new block (a double spend seen from the pool). */
  spendElsewhere(outPoints: readonly CkbJsonOutPoint[]): string {
    const cells = this.cells();
    const capacity = outPoints.reduce(
      (sum, o) => sum + BigInt(cells.live.get(outPointKey(o))?.output.capacity ?? '0x0'),
      0n,
    );
    const tx: CkbJsonTransaction = {
      version: '0x0',
      cell_deps: [{ out_point: this.options.secp256k1DepGroup, dep_type: 'dep_group' }],
      header_deps: [],
      inputs: outPoints.map((o) => ({ since: '0x0', previous_output: o })),
      outputs: [{ capacity: hex(capacity - 100_000n), lock: OTHER_MINER_LOCK, type: null }],
      outputs_data: ['0x'],
      witnesses: [],
    };
    this.mineOn(this.tip().hash, 0, [tx]);
    return hashHex(encodeRawTransaction(tx));
  }

  /** Hashes of the transactions in the pool. */
  pendingTransactions(): string[] {
    return [...this.pool.keys()];
  }

  /** The live cells of the canonical chain now (test inspection). */
  liveCells(lock?: CkbJsonScript): LiveCell[] {
    const all = [...this.cells().live.values()];
    return lock ? all.filter((c) => sameScript(c.output.lock, lock)) : all;
  }

  /**
   * A competing branch: `length` blocks on the canonical block at `fromNumber − 1`. When it is longer than
   * the canonical chain above that point, it becomes canonical and the blocks it replaces are orphaned.
   */
  fork(fromNumber: number, length: number): string[] {
    let parent = this.canonical[fromNumber - 1];
    if (parent === undefined) throw new RangeError(`no canonical block at ${fromNumber - 1}`);
    const hashes: string[] = [];
    for (let i = 0; i < length; i++) {
      parent = this.mineOn(parent, 7_000 + i);
      hashes.push(parent);
    }
    return hashes;
  }

  // -------------------------------------------------------------------------------------------------
  // JSON-RPC

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      let request: { id?: unknown; method?: unknown; params?: unknown };
      try {
        request = JSON.parse(body);
      } catch {
        return send(res, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      }
      const id = request.id ?? null;
      if (typeof request.method !== 'string') {
        return send(res, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id });
      }
      try {
        const params = Array.isArray(request.params) ? request.params : [];
        const result = this.dispatch(request.method, params);
        send(res, { jsonrpc: '2.0', result, id });
      } catch (error) {
        if (error instanceof RpcFailure) {
          send(res, { jsonrpc: '2.0', error: { code: error.code, message: error.message, data: error.data }, id });
        } else if (error instanceof CkbEncodingError) {
          send(res, { jsonrpc: '2.0', error: { code: -32602, message: `Invalid params: ${error.message}.` }, id });
        } else {
          send(res, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id });
        }
      }
    });
  }

  private dispatch(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'get_block_template': {
        params.slice(0, 2).forEach((p, i) => {
          if (p !== null && p !== undefined) parseCkbUint(p, `params[${i}]`);
        });
        if (!this.options.blockAssembler) {
          throw new RpcFailure(
            -4,
            'RPCModuleIsDisabled: This RPC method is in the module `Miner`. Please modify `rpc.modules` and `block_assembler` in ckb.toml and restart the ckb node to enable it.',
          );
        }
        return this.template();
      }
      case 'submit_block':
        return this.submit(params[0], params[1]);
      case 'get_tip_header':
        return this.headerView(this.tip().hash, params[0]);
      case 'get_tip_block_number':
        return hex(this.tip().number);
      case 'get_header_by_number': {
        const hash = this.canonical[Number(parseCkbUint(params[0], 'block_number'))];
        return hash === undefined ? null : this.headerView(hash, params[1]);
      }
      case 'get_block_hash':
        return this.canonical[Number(parseCkbUint(params[0], 'block_number'))] ?? null;
      case 'get_header': {
        const hash = hashParam(params[0]);
        return this.blocks.has(hash) ? this.headerView(hash, params[1]) : null;
      }
      case 'get_block': {
        const stored = this.blocks.get(hashParam(params[0]));
        if (!stored) return null;
        return {
          ...stored.block,
          header: { ...stored.header, hash: stored.hash },
          transactions: stored.block.transactions.map((tx, i) => ({ ...tx, hash: stored.txHashes[i] })),
        };
      }
      case 'get_block_economic_state':
        return this.economicState(hashParam(params[0]));
      case 'get_cells':
        return this.getCells(params);
      case 'get_cells_capacity': {
        const cells = this.searchCells(params[0]);
        const tip = this.tip();
        return {
          capacity: hex(cells.reduce((sum, c) => sum + BigInt(c.output.capacity), 0n)),
          block_hash: tip.hash,
          block_number: hex(tip.number),
        };
      }
      case 'get_live_cell':
        return this.getLiveCell(params);
      case 'get_transaction':
        return this.getTransaction(params);
      case 'send_transaction':
        return this.sendTransaction(params);
      case 'get_fee_rate_statistics': {
        if (params[0] !== undefined && params[0] !== null) parseCkbUint(params[0], 'target');
        const stats = this.options.feeRateStatistics;
        return stats ? { mean: hex(stats.mean), median: hex(stats.median) } : null;
      }
      default:
        throw new RpcFailure(-32601, 'Method not found');
    }
  }

  private headerView(hash: string, verbosity: unknown): CkbJsonHeaderView | string {
    const stored = this.blocks.get(hash) as StoredBlock;
    if (verbosity !== undefined && verbosity !== null && parseCkbUint(verbosity, 'verbosity', 32) === 0n) {
      const { raw, nonce } = rawHeaderOf(stored.header);
      const nonceBytes = Buffer.alloc(16);
      nonceBytes.writeBigUInt64LE(BigInt.asUintN(64, nonce));
      nonceBytes.writeBigUInt64LE(nonce >> 64n, 8);
      return bufHex(Buffer.concat([encodeCkbRawHeader(raw), nonceBytes]));
    }
    return { ...stored.header, hash };
  }

  private economicState(hash: string): unknown {
    const stored = this.blocks.get(hash);
    if (!stored || stored.number === 0 || !this.isCanonical(hash)) return null;
    const finalizedAt = this.canonical[stored.number + this.options.finalizationDelay];
    if (finalizedAt === undefined) return null;
    const reward = this.rewardOf(stored);
    return {
      issuance: { primary: hex(this.options.primaryReward), secondary: hex(this.options.secondaryReward * 4n) },
      miner_reward: {
        primary: hex(reward.primary),
        secondary: hex(reward.secondary),
        committed: hex(reward.committed),
        proposal: hex(reward.proposal),
      },
      txs_fee: hex(stored.fees),
      finalized_at: finalizedAt,
    };
  }

  /** The miner's share: issuance, 60% of the fees committed, and (simplified) nothing for proposals. */
  private rewardOf(block: StoredBlock): { primary: bigint; secondary: bigint; committed: bigint; proposal: bigint } {
    return {
      primary: this.options.primaryReward,
      secondary: this.options.secondaryReward,
      committed: (block.fees * 6n) / 10n,
      proposal: 0n,
    };
  }

  // -------------------------------------------------------------------------------------------------
  // Chain

  /** The compact target of a block on `parent` with timestamp `timestampMs`. */
  private targetAfter(parent: { number: number; header: CkbJsonHeader }, timestampMs: number): number {
    const { retarget, compactTarget } = this.options;
    if (!retarget) return compactTarget;
    return retarget({ number: parent.number, timestampMs: Number(parent.header.timestamp) }, timestampMs);
  }

  private storeGenesis(): void {
    const cellbase = this.cellbase(0, [], OTHER_MINER_LOCK, '0x');
    const block: CkbJsonBlock = {
      header: undefined as unknown as CkbJsonHeader,
      uncles: [],
      transactions: [cellbase],
      proposals: [],
    };
    const roots = blockCommitments(block, []);
    const header: CkbJsonHeader = {
      version: '0x0',
      compact_target: hex(this.options.compactTarget),
      timestamp: hex(this.options.now() - 600_000),
      number: '0x0',
      epoch: hex(this.epoch(0)),
      parent_hash: ZERO,
      transactions_root: roots.transactionsRoot,
      proposals_hash: roots.proposalsHash,
      extra_hash: roots.extraHash,
      dao: this.daoFor(ZERO),
      nonce: '0x0',
    };
    block.header = header;
    const hash = this.hashOf(header);
    this.blocks.set(hash, {
      hash,
      number: 0,
      header,
      block,
      txHashes: roots.txHashes,
      minerLock: OTHER_MINER_LOCK,
      fees: 0n,
    });
    this.canonical = [hash];
  }

  private epoch(number: number): bigint {
    const length = BigInt(this.options.epochLength);
    const n = BigInt(number);
    return (n / length) | ((n % length) << 24n) | (length << 40n);
  }

  private daoFor(parentHash: string): string {
    return hashHex(Buffer.concat([Buffer.from('stand-in dao'), Buffer.from(parentHash.slice(2), 'hex')]));
  }

  private extensionFor(parentHash: string): string {
    return hashHex(Buffer.concat([Buffer.from('stand-in chain root'), Buffer.from(parentHash.slice(2), 'hex')]));
  }

  /** The chain from genesis to `hash` (inclusive), as hashes by number. */
  private branch(hash: string): string[] {
    const chain: string[] = [];
    let cursor = this.blocks.get(hash);
    while (cursor) {
      chain[cursor.number] = cursor.hash;
      cursor = cursor.number === 0 ? undefined : this.blocks.get(cursor.header.parent_hash);
    }
    return chain;
  }

  /** The cellbase of block `number` on `branch`: it pays the miner of block number − delay its full reward. */
  private cellbase(
    number: number,
    branch: readonly string[],
    lock: CkbJsonScript,
    message: string,
  ): CkbJsonTransaction {
    const paid =
      number > this.options.finalizationDelay
        ? this.blocks.get(branch[number - this.options.finalizationDelay] as string)
        : undefined;
    const outputs = paid ? [{ capacity: hex(total(this.rewardOf(paid))), lock: paid.minerLock, type: null }] : [];
    return {
      version: '0x0',
      cell_deps: [],
      header_deps: [],
      inputs: [{ since: hex(number), previous_output: { tx_hash: ZERO, index: '0xffffffff' } }],
      outputs,
      outputs_data: outputs.map(() => '0x'),
      witnesses: [bufHex(encodeCellbaseWitness(lock, message))],
    };
  }

  private templateFor(
    parentHash: string,
    lock: CkbJsonScript,
    message: string,
    withPool: boolean,
  ): CkbJsonBlockTemplate {
    const key = `${parentHash}:${withPool ? this.mempoolSerial : '-'}:${lock.args}`;
    if (withPool && this.current?.key === key) return this.current.template;
    const parent = this.blocks.get(parentHash) as StoredBlock;
    const number = parent.number + 1;
    const currentTime = Math.max(this.options.now(), Number(BigInt(parent.header.timestamp)) + 1);
    const branch = this.branch(parentHash);
    const cellbase = this.cellbase(number, branch, lock, message);
    const included = new Set(
      branch.flatMap((h) => (this.blocks.get(h) as StoredBlock).block.uncles.map((u) => this.hashOf(u.header))),
    );
    const uncles = [...this.blocks.values()]
      .filter(
        (b) =>
          b.number > 0 &&
          b.number < number &&
          b.number >= number - 6 &&
          branch[b.number] !== b.hash &&
          !included.has(b.hash),
      )
      .filter((b) => branch[b.number - 1] === b.header.parent_hash)
      .slice(0, 2);
    const pool = withPool ? this.mempool : [];
    const template: CkbJsonBlockTemplate = {
      version: '0x0',
      compact_target: hex(this.targetAfter(parent, currentTime)),
      current_time: hex(currentTime),
      number: hex(number),
      epoch: hex(this.epoch(number)),
      parent_hash: parentHash,
      cycles_limit: '0xd09dc300',
      bytes_limit: '0x91c08',
      uncles_count_limit: '0x2',
      uncles: uncles.map((u) => ({ hash: u.hash, required: false, proposals: u.block.proposals, header: u.header })),
      transactions: pool.map((p) => ({ hash: p.hash, required: false, cycles: '0x1b4a1', depends: null, data: p.tx })),
      proposals: Array.from({ length: this.options.proposals }, (_, i) =>
        hashHex(Buffer.from(`proposal ${number} ${i} ${parentHash}`)).slice(0, 22),
      ),
      cellbase: { hash: hashHex(encodeRawTransaction(cellbase)), cycles: null, data: cellbase },
      work_id: hex(this.workId++),
      dao: this.daoFor(parentHash),
    };
    if (this.options.extension) template.extension = this.extensionFor(parentHash);
    if (withPool) this.current = { key, template };
    return template;
  }

  /** Builds, grinds and processes a block on `parentHash` paying OTHER_MINER_LOCK. */
  private mineOn(parentHash: string, timeSkew: number, transactions: readonly CkbJsonTransaction[] = []): string {
    const template = this.templateFor(parentHash, OTHER_MINER_LOCK, '0x', false);
    const block: CkbJsonBlock = {
      header: undefined as unknown as CkbJsonHeader,
      uncles: template.uncles.map((u) => ({ header: u.header, proposals: u.proposals })),
      transactions: [template.cellbase.data, ...transactions],
      proposals: template.proposals,
      ...(template.extension !== undefined && { extension: template.extension }),
    };
    const roots = blockCommitments(
      block,
      template.uncles.map((u) => u.hash),
    );
    const timestamp = Number(template.current_time) + timeSkew;
    const header: CkbJsonHeader = {
      version: template.version,
      compact_target: hex(this.targetAfter(this.blocks.get(parentHash) as StoredBlock, timestamp)),
      timestamp: hex(timestamp),
      number: template.number,
      epoch: template.epoch,
      parent_hash: parentHash,
      transactions_root: roots.transactionsRoot,
      proposals_hash: roots.proposalsHash,
      extra_hash: roots.extraHash,
      dao: template.dao,
      nonce: '0x0',
    };
    const { raw } = rawHeaderOf(header);
    const powHash = ckbPowHash(encodeCkbRawHeader(raw));
    const target = compactTarget(Number(header.compact_target));
    let nonce = BigInt(timeSkew) << 64n;
    while (BigInt(bufHex(eaglesong(ckbPowMessage(powHash, nonce)))) > target) nonce++;
    block.header = { ...header, nonce: hex(nonce) };
    return this.process(block, `mined ${template.work_id}`);
  }

  private submit(workId: unknown, blockParam: unknown): string {
    if (typeof workId !== 'string') throw new CkbEncodingError('work_id', 'expected a string');
    try {
      const hash = this.process(parseBlock(blockParam), workId);
      this.submissions.push({ workId, hash });
      return hash;
    } catch (error) {
      if (error instanceof RpcFailure || error instanceof CkbEncodingError) {
        this.submissions.push({ workId, error: error.message });
      }
      throw error;
    }
  }

  /** The node's checks, in the node's order (submit_block's HeaderVerifier, then process_block). */
  private process(block: CkbJsonBlock, _workId: string): string {
    const header = block.header;
    const { raw, nonce } = rawHeaderOf(header);
    const encoded = encodeCkbRawHeader(raw);
    const hash = bufHex(ckbBlockHash(encoded, nonce));
    const target = compactTarget(raw.compactTarget);
    if (target === 0n || BigInt(bufHex(eaglesong(ckbPowMessage(ckbPowHash(encoded), nonce)))) > target) {
      throw new RpcFailure(-3, POW_ERROR, 'Header(Pow(InvalidNonce))');
    }
    const parent = this.blocks.get(header.parent_hash);
    if (!parent) {
      throw invalid(`Block(UnknownParent(UnknownParentError(parent_hash: Byte32(${header.parent_hash}))))`);
    }
    const number = Number(raw.number);
    if (number !== parent.number + 1) {
      throw invalid(`Header(Number(NumberError(expected: ${parent.number + 1}, actual: ${number})))`);
    }
    const wantedTarget = this.targetAfter(parent, Number(raw.timestamp));
    if (raw.compactTarget !== wantedTarget) {
      throw invalid(
        `Header(Epoch(TargetMismatch(expected: ${wantedTarget.toString(16)}, actual: ${raw.compactTarget.toString(16)})))`,
      );
    }
    if (raw.epoch !== this.epoch(number)) {
      throw invalid(`Header(Epoch(NumberMismatch(expected: ${this.epoch(number)}, actual: ${raw.epoch})))`);
    }
    const parentTime = BigInt(parent.header.timestamp);
    if (raw.timestamp <= parentTime) {
      throw invalid(`Header(Timestamp(BlockTimeTooOld(min: ${parentTime}, actual: ${raw.timestamp})))`);
    }
    const maxTime = BigInt(this.options.now() + 15_000);
    if (raw.timestamp > maxTime) {
      throw invalid(`Header(Timestamp(BlockTimeTooNew(max: ${maxTime}, actual: ${raw.timestamp})))`);
    }
    if (this.blocks.has(hash)) return hash;

    const uncleHashes = block.uncles.map((u) => this.hashOf(u.header));
    const roots = blockCommitments(block, uncleHashes);
    const cellbase = block.transactions[0];
    if (cellbase?.inputs.length !== 1 || cellbase.inputs[0]?.previous_output.tx_hash !== ZERO) {
      throw invalid('Block(Cellbase(InvalidPosition))');
    }
    if (header.transactions_root !== roots.transactionsRoot) throw invalid('Block(TransactionsRoot)');
    if (header.proposals_hash !== roots.proposalsHash) throw invalid('Block(ProposalTransactionsHash)');
    const branch = this.branch(header.parent_hash);
    const expected = this.cellbase(number, branch, OTHER_MINER_LOCK, '0x');
    if (JSON.stringify(cellbase.outputs) !== JSON.stringify(expected.outputs)) {
      throw invalid('Block(Cellbase(InvalidRewardAmount))');
    }
    if (this.options.extension) {
      if (block.extension === undefined) throw invalid('Block(NoBlockExtension)');
      if (block.extension !== this.extensionFor(header.parent_hash)) throw invalid('Block(InvalidChainRoot)');
    }
    if (header.extra_hash !== roots.extraHash) throw invalid('Block(InvalidExtraHash)');
    if (header.dao !== this.daoFor(header.parent_hash)) throw invalid('Block(InvalidDAO)');

    const minerLock = witnessLock(cellbase);
    const fees = block.transactions
      .slice(1)
      .reduce(
        (sum, tx) =>
          sum +
          (this.mempool.find((p) => p.tx === tx || sameTx(p.tx, tx))?.fee ??
            this.pool.get(hashHex(encodeRawTransaction(tx)))?.fee ??
            1000n),
        0n,
      );
    this.blocks.set(hash, { hash, number, header, block, txHashes: roots.txHashes, minerLock, fees });
    const candidate = this.branch(hash);
    if (candidate.length > this.canonical.length) {
      this.canonical = candidate;
      this.current = undefined;
      // Committed transactions leave the pool; new ones arrive so that templates stay full.
      const committed = new Set(roots.txHashes);
      this.mempool = this.mempool.filter((p) => !committed.has(p.hash));
      this.refreshPool();
      while (this.mempool.length < this.options.transactions) this.addTransaction();
      this.emit('new_tip_header', { ...header, hash });
      this.notifyTemplate();
    }
    return hash;
  }

  // -------------------------------------------------------------------------------------------------
  // Cells, indexer and pool

  /** The canonical chain's cells, replayed once per tip. */
  private cells(): ChainCells {
    const tip = this.tip().hash;
    if (this.cellsAt?.tip !== tip) {
      const blocks = this.canonical.map((hash) => {
        const stored = this.blocks.get(hash) as StoredBlock;
        return { hash, number: stored.number, transactions: stored.block.transactions, txHashes: stored.txHashes };
      });
      this.cellsAt = { tip, cells: replayChain(blocks) };
    }
    return this.cellsAt.cells;
  }

  /** After a new tip: committed transactions leave the pool; those whose inputs another one spent are rejected. */
  private refreshPool(): void {
    const cells = this.cells();
    for (const [hash, entry] of this.pool) {
      if (cells.committed.has(hash)) {
        this.pool.delete(hash);
        continue;
      }
      const spent = entry.tx.inputs.find((i) => !cells.live.has(outPointKey(i.previous_output)));
      if (spent) {
        this.pool.delete(hash);
        this.mempool = this.mempool.filter((p) => p.hash !== hash);
        const index = Buffer.alloc(4);
        index.writeUInt32LE(Number(BigInt(spent.previous_output.index)));
        this.rejected.set(
          hash,
          JSON.stringify({
            type: 'Resolve',
            description: `Resolve failed Dead(OutPoint(${spent.previous_output.tx_hash}${index.toString('hex')}))`,
          }),
        );
      }
    }
  }

  /** The indexer's search: a lock script (exact or prefix), with the filter's ranges. */
  private searchCells(searchKeyParam: unknown): LiveCell[] {
    const key = objectParam(searchKeyParam, 'search_key');
    const script = parseScript(key.script, 'search_key.script');
    if (key.script_type !== 'lock')
      throw new CkbEncodingError('search_key.script_type', 'the stand-in indexes locks only');
    const prefix = key.script_search_mode === 'prefix' || key.script_search_mode === undefined;
    const filter = key.filter === undefined || key.filter === null ? {} : objectParam(key.filter, 'search_key.filter');
    const range = (name: string): [bigint, bigint] | undefined => {
      const value = filter[name];
      if (value === undefined || value === null) return undefined;
      if (!Array.isArray(value) || value.length !== 2)
        throw new CkbEncodingError(`filter.${name}`, 'expected [from, to)');
      return [parseCkbUint(value[0], `filter.${name}[0]`), parseCkbUint(value[1], `filter.${name}[1]`)];
    };
    const scriptLen = range('script_len_range');
    const dataLen = range('output_data_len_range');
    const capacity = range('output_capacity_range');
    const within = (n: bigint, r: [bigint, bigint] | undefined) => r === undefined || (n >= r[0] && n < r[1]);
    return [...this.cells().live.values()]
      .filter((c) => {
        const lock = c.output.lock;
        const lockMatches =
          lock.code_hash === script.code_hash &&
          lock.hash_type === script.hash_type &&
          (prefix ? lock.args.startsWith(script.args) : lock.args === script.args);
        const typeLen = c.output.type ? 33 + (c.output.type.args.length - 2) / 2 : 0;
        return (
          lockMatches &&
          within(BigInt(typeLen), scriptLen) &&
          within(BigInt((c.output_data.length - 2) / 2), dataLen) &&
          within(BigInt(c.output.capacity), capacity)
        );
      })
      .sort((a, b) => compareCursor(cursorOf(a), cursorOf(b)));
  }

  /** get_cells(search_key, order, limit, after): a page, and the cursor of its last cell. */
  private getCells(params: unknown[]): unknown {
    const withData = (objectParam(params[0], 'search_key').with_data ?? true) !== false;
    const order = params[1];
    if (order !== 'asc' && order !== 'desc') throw new CkbEncodingError('order', 'expected "asc" or "desc"');
    const limit = Number(parseCkbUint(params[2], 'limit', 32));
    if (limit === 0) throw new RpcFailure(-1, 'limit should be greater than 0');
    const after = params[3] === undefined || params[3] === null ? undefined : String(params[3]);
    let cells = this.searchCells(params[0]);
    if (order === 'desc') cells = cells.reverse();
    if (after !== undefined) {
      cells = cells.filter((c) => (order === 'asc' ? 1 : -1) * compareCursor(cursorOf(c), after) > 0);
    }
    const page = cells.slice(0, limit);
    const last = page[page.length - 1];
    return {
      objects: page.map((c) => ({
        output: c.output,
        output_data: withData ? c.output_data : null,
        out_point: c.out_point,
        block_number: hex(c.block_number),
        tx_index: hex(c.tx_index),
      })),
      last_cursor: last ? cursorOf(last) : (after ?? '0x'),
    };
  }

  private getLiveCell(params: unknown[]): unknown {
    const point = objectParam(params[0], 'out_point');
    const outPoint = { tx_hash: parseCkbHash(point.tx_hash, 'out_point.tx_hash'), index: String(point.index) };
    parseCkbUint(point.index, 'out_point.index', 32);
    const key = outPointKey(outPoint);
    const cells = this.cells();
    const cell = cells.live.get(key);
    if (cell) {
      const data =
        params[1] === true
          ? { content: cell.output_data, hash: hashHex(Buffer.from(cell.output_data.slice(2), 'hex')) }
          : null;
      return { cell: { output: cell.output, data }, status: 'live' };
    }
    return { cell: null, status: cells.dead.has(key) ? 'dead' : 'unknown' };
  }

  private getTransaction(params: unknown[]): unknown {
    const hash = parseCkbHash(params[0], 'tx_hash');
    const status = (
      value: string,
      block?: { hash: string; number: number; index: number },
      reason: string | null = null,
    ) => ({
      block_hash: block?.hash ?? null,
      block_number: block ? hex(block.number) : null,
      status: value,
      tx_index: block ? hex(block.index) : null,
      reason,
    });
    const committed = this.cells().committed.get(hash);
    if (committed) {
      return {
        transaction: { ...committed.tx, hash },
        cycles: null,
        time_added_to_pool: null,
        fee: null,
        min_replace_fee: null,
        tx_status: status('committed', {
          hash: committed.blockHash,
          number: committed.blockNumber,
          index: committed.txIndex,
        }),
      };
    }
    const pending = this.pool.get(hash);
    if (pending) {
      return {
        transaction: { ...pending.tx, hash },
        cycles: '0x1b4a1',
        time_added_to_pool: hex(this.options.now()),
        fee: hex(pending.fee),
        min_replace_fee: null,
        tx_status: status('pending'),
      };
    }
    const reason = this.rejected.get(hash);
    return {
      transaction: null,
      cycles: null,
      time_added_to_pool: null,
      fee: null,
      min_replace_fee: null,
      tx_status: reason === undefined ? status('unknown') : status('rejected', undefined, reason),
    };
  }

  private sendTransaction(params: unknown[]): string {
    const tx = parseTransaction(params[0], 'tx');
    const validator = params[1] ?? 'passthrough';
    if (validator !== 'passthrough' && validator !== 'well_known_scripts_only') {
      throw new CkbEncodingError('outputs_validator', `unknown variant ${JSON.stringify(validator)}`);
    }
    try {
      const { hash, fee } = checkPoolTransaction(tx, this.cells(), this.pool, validator, {
        minFeeRate: this.options.minFeeRate,
        secp256k1DepGroup: this.options.secp256k1DepGroup,
      });
      this.pool.set(hash, { tx, fee });
      this.rejected.delete(hash);
      this.mempool.push({ tx, hash, fee });
      this.current = undefined;
      return hash;
    } catch (error) {
      if (error instanceof PoolRefusal) throw new RpcFailure(error.code, error.message, error.data);
      throw error;
    }
  }

  private notifyTemplate(): void {
    if (this.options.notify.length === 0 || !this.options.blockAssembler) return;
    const body = JSON.stringify(this.template());
    for (const url of this.options.notify) {
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        (res) => res.body?.cancel(),
        (error: unknown) => this.notifyErrors.push(`${url}: ${(error as Error).message}`),
      );
    }
  }

  private hashOf(header: CkbJsonHeader): string {
    const { raw, nonce } = rawHeaderOf(header);
    return bufHex(ckbBlockHash(encodeCkbRawHeader(raw), nonce));
  }
}

/** Starts a stand-in node listening on a loopback port. */
export async function startCkbNode(options: CkbNodeOptions = {}): Promise<CkbStandInNode> {
  const node = new CkbStandInNode(options);
  await node.listen();
  return node;
}

function send(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function hashParam(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new CkbEncodingError('block_hash', 'expected a 0x-prefixed 32-byte hash');
  }
  return value.toLowerCase();
}

/** CKB's compact_to_target; zero when it overflows (the node then refuses the header). */
function compactTarget(compact: number): bigint {
  const exponent = compact >>> 24;
  const mantissa = BigInt(compact & 0xffffff);
  if (exponent <= 3) return mantissa >> BigInt(8 * (3 - exponent));
  if (mantissa !== 0n && exponent > 32) return 0n;
  return mantissa << BigInt(8 * (exponent - 3));
}

function total(reward: { primary: bigint; secondary: bigint; committed: bigint; proposal: bigint }): bigint {
  return reward.primary + reward.secondary + reward.committed + reward.proposal;
}

function objectParam(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CkbEncodingError(field, 'expected an object');
  }
  return value as Record<string, unknown>;
}

function sameScript(a: CkbJsonScript, b: CkbJsonScript): boolean {
  return a.code_hash === b.code_hash && a.hash_type === b.hash_type && a.args === b.args;
}

/** The indexer's cursor of a cell: block number, tx index and output index, big-endian (orders as the chain). */
function cursorOf(cell: LiveCell): string {
  const b = Buffer.alloc(16);
  b.writeBigUInt64BE(BigInt(cell.block_number));
  b.writeUInt32BE(cell.tx_index, 8);
  b.writeUInt32BE(Number(BigInt(cell.out_point.index)), 12);
  return bufHex(b);
}

function compareCursor(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameTx(a: CkbJsonTransaction, b: CkbJsonTransaction): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The lock of a cellbase's CellbaseWitness (table: header, Script table, Bytes). */
function witnessLock(cellbase: CkbJsonTransaction): CkbJsonScript {
  const witness = Buffer.from((cellbase.witnesses[0] ?? '0x').slice(2), 'hex');
  if (witness.length < 12) throw invalid('Block(Cellbase(InvalidWitness))');
  const scriptStart = witness.readUInt32LE(4);
  const scriptEnd = witness.readUInt32LE(8);
  const script = witness.subarray(scriptStart, scriptEnd);
  if (script.length < 53 || script.readUInt32LE(0) !== script.length) throw invalid('Block(Cellbase(InvalidWitness))');
  const hashType = (['data', 'type', 'data1', undefined, 'data2'] as const)[script[48] as number];
  if (hashType === undefined) throw invalid('Block(Cellbase(InvalidWitness))');
  return { code_hash: bufHex(script.subarray(16, 48)), hash_type: hashType, args: bufHex(script.subarray(53)) };
}

/** A real-shaped secp256k1 transfer: one input, two outputs, the dep group cell dep, a 65-byte signature. */
function syntheticTransaction(serial: number): CkbJsonTransaction {
  const seed = (label: string) => hashHex(Buffer.from(`stand-in ${label} ${serial}`));
  return {
    version: '0x0',
    cell_deps: [
      {
        // mainnet secp256k1 dep group (docs/hashes.toml)
        out_point: { tx_hash: '0x71a7ba8fc96349fea0ed3a5c47992e3b4084b031a42264a018e0072e8172e46c', index: '0x0' },
        dep_type: 'dep_group',
      },
    ],
    header_deps: [],
    inputs: [{ since: '0x0', previous_output: { tx_hash: seed('input'), index: '0x1' } }],
    outputs: [
      {
        capacity: hex(10_000_000_000n + BigInt(serial)),
        lock: { code_hash: SECP256K1_BLAKE160_CODE_HASH, hash_type: 'type', args: seed('to').slice(0, 42) },
        type: null,
      },
      {
        capacity: '0x1561d9307e88',
        lock: { code_hash: SECP256K1_BLAKE160_CODE_HASH, hash_type: 'type', args: seed('change').slice(0, 42) },
        type: null,
      },
    ],
    outputs_data: ['0x', '0x'],
    // WitnessArgs { lock: Some(65 bytes), input_type: None, output_type: None }
    witnesses: [`0x5500000010000000550000005500000041000000${seed('sig').slice(2)}${seed('sig2').slice(2, 68)}`],
  };
}
