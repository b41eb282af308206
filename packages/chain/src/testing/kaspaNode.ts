/**
 * A stand-in kaspad for tests: a loopback WebSocket server speaking kaspad's wRPC JSON encoding
 * (workflow-rpc serde_json framing, see ../kaspa/wrpcClient.ts) with a small DAG behind it.
 *
 * - getBlockTemplate: a full RpcRawBlock whose parents are the DAG's tips, with a coinbase built as
 *   kaspad builds it (outputs for the merged blue blocks, the red rewards to the new block's miner,
 *   the payload with blue score, subsidy, pay script and extra data) and the `isSynced` flag.
 * - submitBlock: checks the header against the templates it served (its own pre-PoW hash), the
 *   merkle root of the transactions sent (its own transaction hashing), and kHeavyHash against bits;
 *   answers `{report: {type: "reject", reason: "blockInvalid"}}` (or `isInIBD` when not synced), as
 *   kaspad's rpc/service/src/service.rs does, and adds an accepted block to the DAG.
 * - subscribe / newBlockTemplateNotification at a chosen rate (each tick the "network" adds a block).
 * - getBlock (verbose data: isChainBlock, childrenHashes, mergeSetBluesHashes, mergeSetRedsHashes),
 *   getBlockDagInfo, getServerInfo; errors in kaspad's words ("cannot find header <hash>").
 *
 * - Transactions (the pool's Kaspa wallet): a UTXO set, a mempool and the virtual chain's accepted
 *   transactions. submitTransaction checks each transaction with ./kaspaTxVerifier.ts (code of its own,
 *   proven on rusty-kaspa's vectors) and kaspad's mempool rules (no duplicate, no double spend, no
 *   orphan), refusing in kaspad's words; getUtxosByAddresses, getBalanceByAddress, getMempoolEntry,
 *   getVirtualChainFromBlock (with accepted transaction ids), getFeeEstimate and getSink answer in
 *   kaspad's JSON shapes (rpc/core/src/model/message.rs). A simplification: the next chain block the
 *   stand-in adds accepts the whole mempool (on kaspad a block carries them and the next chain block
 *   merging it accepts them), and a later reorganisation does not undo an acceptance.
 *
 * Test controls: `setSynced`, `advance`, `notify`, `markRed` (the next chain block merges that
 * block red), `dropConnections`, `fund` (mature UTXOs for an address), `dropFromMempool`,
 * `setFeeEstimate`. Not for production code.
 */
import { randomBytes } from 'node:crypto';
import { kaspaPowInput, kheavyhash } from '@lodestone/pow';
import { WebSocket, WebSocketServer } from 'ws';
import { decodeKaspaAddress } from '../addresses/kaspa.js';
import { payToAddressScript, writeCoinbasePayload } from '../kaspa/coinbase.js';
import { parseJsonExact, stringifyJsonExact } from '../kaspa/json.js';
import {
  headerHash,
  merkleRoot,
  type TransactionFields,
  targetFromBits,
  transactionHash,
  transactionIdV0,
} from './kaspaHashing.js';
import { KaspadRejection, readRpcTransaction, type VerifierEntry, verifyTransaction } from './kaspaTxVerifier.js';

export interface KaspaNodeOptions {
  /** Address prefix the node accepts (default `kaspadev`); its network name follows from it. */
  prefix?: 'kaspa' | 'kaspatest' | 'kaspadev' | 'kaspasim';
  /** Compact target of genesis and, unless `retarget` says otherwise, of every template (default 0x207fffff: about every other hash is a block). */
  bits?: number;
  /**
   * The compact target of a block on `selectedParent` (its blue score and timestamp, ms) with timestamp
   * `timestampMs`: the demo network retargets every block with it (ASERT); tests leave the target
   * fixed. Not Kaspa's DAA window.
   */
  retarget?: (selectedParent: { blueScore: number; timestampMs: number }, timestampMs: number) => number;
  /** Subsidy of every block in sompi (default 10 KAS). */
  subsidy?: bigint;
  /** DAA score of the genesis block (default 300 000 000 000, about mainnet's). */
  genesisDaaScore?: bigint;
  /** New-template notifications per second (0: only when a block arrives or `notify()` is called). */
  templateRateHz?: number;
  /** With a rate: whether the network adds a block at each tick (default true), as at 10 BPS. */
  advanceOnTick?: boolean;
  isSynced?: boolean;
  /** DAA score depth before a coinbase output may be spent (default 1000: 100 s at 10 BPS, consensus/core/src/config/bps.rs). */
  coinbaseMaturity?: bigint;
}

/** A UTXO of the stand-in's set (RpcUtxoEntry with its outpoint). */
interface StandInUtxo extends VerifierEntry {
  transactionId: string;
  index: number;
  /** The script public key as JSON writes it (version big-endian ‖ script, hex). */
  scriptPublicKey: string;
}

interface MempoolTransaction {
  id: string;
  transaction: Record<string, unknown>;
  fee: bigint;
  outpoints: string[];
  outputs: { value: bigint; scriptPublicKey: string }[];
}

/** Feerate buckets (sompi per gram) as getFeeEstimate answers them. */
export interface StandInFeeEstimate {
  priority: number;
  normal: number[];
  low: number[];
}

interface DagBlock {
  hash: string;
  header: Record<string, unknown>;
  transactions: Record<string, unknown>[];
  parents: string[];
  selectedParent: string | undefined;
  mergeSetBlues: string[];
  mergeSetReds: string[];
  blueScore: bigint;
  blueWork: bigint;
  daaScore: bigint;
  children: string[];
  subsidy: bigint;
  payScript: string;
}

/** What the virtual block (the next block) would be, as a template fixes it. */
interface Virtual {
  parents: string[];
  selectedParent: DagBlock;
  mergeSetBlues: string[];
  mergeSetReds: string[];
  blueScore: bigint;
  blueWork: bigint;
  daaScore: bigint;
}

export interface KaspaSubmission {
  hash: string;
  report: { type: 'success' } | { type: 'reject'; reason: string };
  /** Why the stand-in refused it, in words (kaspad only logs this). */
  why?: string;
}

const NETWORKS = { kaspa: 'mainnet', kaspatest: 'testnet-10', kaspadev: 'devnet', kaspasim: 'simnet' } as const;
const COINBASE_SUBNETWORK = `01${'00'.repeat(19)}`;
const EMPTY_MUHASH = '544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0';
/** The pay script of blocks "other miners" make. */
const NETWORK_SCRIPT = `000020${'11'.repeat(32)}ac`;
const SERVER_VERSION = '1.0.0-lodestone-standin';

export class KaspaNodeStandIn {
  readonly prefix: string;
  readonly bits: number;
  private readonly subsidy: bigint;
  private readonly options: KaspaNodeOptions;
  private readonly server: WebSocketServer;
  private readonly subscribers = new Set<WebSocket>();
  private readonly blocks = new Map<string, DagBlock>();
  private readonly tips = new Set<string>();
  private readonly chain = new Set<string>();
  private readonly redMarks = new Set<string>();
  /** Served templates by pre-PoW hash (the newest 2000). */
  private readonly templates = new Map<
    string,
    { block: Record<string, unknown>; virtual: Virtual; payScript: string }
  >();
  private readonly addresses = new Map<string, string>();
  /** The virtual UTXO set by `<transactionId>:<index>`. */
  private readonly utxos = new Map<string, StandInUtxo>();
  private readonly mempool = new Map<string, MempoolTransaction>();
  /** Accepted transaction id → accepting chain block; and each chain block's accepted ids. */
  private readonly accepted = new Map<string, string>();
  private readonly acceptedBy = new Map<string, string[]>();
  private readonly coinbaseMaturity: bigint;
  private feeEstimate: StandInFeeEstimate = { priority: 150.5, normal: [120.25, 100], low: [100] };
  /** Every submitTransaction refusal, in order (kaspad's message). */
  readonly refusals: string[] = [];
  private sink: DagBlock;
  private synced: boolean;
  private ticker: NodeJS.Timeout | undefined;
  private connectionId = 0;
  readonly genesis: string;
  /** Every submitBlock, in order. */
  readonly submissions: KaspaSubmission[] = [];
  /** Calls received per method. */
  readonly calls = new Map<string, number>();

  private constructor(server: WebSocketServer, options: KaspaNodeOptions) {
    this.server = server;
    this.options = options;
    this.prefix = options.prefix ?? 'kaspadev';
    this.bits = options.bits ?? 0x207fffff;
    this.subsidy = options.subsidy ?? 1_000_000_000n;
    this.synced = options.isSynced ?? true;
    this.coinbaseMaturity = options.coinbaseMaturity ?? 1000n;
    const genesis = this.makeGenesis(options.genesisDaaScore ?? 300_000_000_000n);
    this.genesis = genesis.hash;
    this.sink = genesis;
    server.on('connection', (socket) => this.accept(socket));
  }

  /** Starts a stand-in node on a free loopback port. */
  static async start(options: KaspaNodeOptions = {}): Promise<KaspaNodeStandIn> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    const node = new KaspaNodeStandIn(server, options);
    node.setTemplateRate(options.templateRateHz ?? 0);
    return node;
  }

  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('stand-in kaspad is not listening');
    return `ws://127.0.0.1:${address.port}`;
  }

  get network(): string {
    return NETWORKS[this.prefix as keyof typeof NETWORKS];
  }

  /** The virtual's DAA score: the score of the next block. */
  get virtualDaaScore(): bigint {
    return this.virtual().daaScore;
  }

  /** The hashes of accepted submitted blocks. */
  get found(): string[] {
    return this.submissions.filter((s) => s.report.type === 'success').map((s) => s.hash);
  }

  setSynced(synced: boolean): void {
    this.synced = synced;
  }

  /** Notifications per second (0 stops the ticker). */
  setTemplateRate(hz: number): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    if (hz <= 0) return;
    this.ticker = setInterval(() => {
      if (this.options.advanceOnTick ?? true) this.advance(1, false);
      this.notify();
    }, 1000 / hz);
  }

  /** The network adds `count` blocks (each on all tips); subscribers hear of it once. */
  advance(count = 1, notify = true): string[] {
    const made: string[] = [];
    for (let i = 0; i < count; i++) {
      // A tip marked red needs a sibling to lose to: the next chain block selects the sibling.
      if ([...this.tips].every((tip) => this.redMarks.has(tip))) {
        const red = this.blocks.get([...this.tips][0] as string) as DagBlock;
        made.push(this.addNetworkBlock(this.virtualOf(red.parents)));
      }
      made.push(this.addNetworkBlock(this.virtual()));
    }
    if (notify) this.notify();
    return made;
  }

  /** The block `hash` will be merged red by the next chain block (it must still be a tip). */
  markRed(hash: string): void {
    if (!this.tips.has(hash)) throw new Error(`block ${hash} is not a tip any more`);
    this.redMarks.add(hash);
  }

  /**
   * Creates mature UTXOs paying `address` (one per amount) in a funding transaction of its own, as if
   * accepted at the sink; with `coinbase`, coinbase outputs at the sink's DAA score (immature until
   * `coinbaseMaturity` more). Returns their outpoints `<txid>:<index>`.
   */
  fund(address: string, amounts: readonly bigint[], options: { coinbase?: boolean } = {}): string[] {
    if (decodeKaspaAddress(address).prefix !== this.prefix)
      throw new Error(`${address} is not a ${this.prefix}: address`);
    const scriptPublicKey = payToAddressScript(address);
    this.addresses.set(scriptPublicKey, address);
    const transactionId = randomBytes(32).toString('hex');
    const coinbase = options.coinbase ?? false;
    const blockDaaScore = this.sink.daaScore;
    return amounts.map((amount, index) => {
      this.utxos.set(`${transactionId}:${index}`, {
        transactionId,
        index,
        amount,
        scriptPublicKey,
        spkVersion: 0,
        script: Buffer.from(scriptPublicKey.slice(4), 'hex'),
        blockDaaScore,
        isCoinbase: coinbase,
      });
      return `${transactionId}:${index}`;
    });
  }

  /** Removes a transaction from the mempool, as kaspad does when it expires or is evicted. */
  /** Test control: what an address holds in the UTXO set (accepted transactions only), sompi. */
  balanceOf(address: string): bigint {
    const script = payToAddressScript(address);
    let balance = 0n;
    for (const u of this.utxos.values()) if (u.scriptPublicKey === script) balance += u.amount;
    return balance;
  }

  dropFromMempool(transactionId: string): boolean {
    return this.mempool.delete(transactionId);
  }

  setFeeEstimate(estimate: StandInFeeEstimate): void {
    this.feeEstimate = estimate;
  }

  /** Ids of the transactions in the mempool, in arrival order. */
  get mempoolIds(): string[] {
    return [...this.mempool.keys()];
  }

  /** The chain block that accepted a transaction, if one did. */
  acceptingBlock(transactionId: string): string | undefined {
    return this.accepted.get(transactionId);
  }

  /** Sends newBlockTemplateNotification to every subscriber. */
  notify(): void {
    const message = stringifyJsonExact({ method: 'newBlockTemplateNotification', params: { NewBlockTemplate: {} } });
    for (const socket of this.subscribers) if (socket.readyState === WebSocket.OPEN) socket.send(message);
  }

  /** Drops every client connection (clients should reconnect). */
  dropConnections(): void {
    for (const client of this.server.clients) client.terminate();
  }

  async close(): Promise<void> {
    this.setTemplateRate(0);
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // -------------------------------------------------------------------------------------------------
  // Transport

  private accept(socket: WebSocket): void {
    const id = ++this.connectionId;
    socket.on('close', () => this.subscribers.delete(socket));
    socket.on('message', (data) => {
      let request: { id?: unknown; method?: unknown; params?: unknown };
      try {
        request = parseJsonExact(data.toString()) as typeof request;
      } catch {
        // workflow-rpc drops a connection whose message it cannot read (WebSocketError::MalformedMessage).
        socket.close();
        return;
      }
      const method = typeof request.method === 'string' ? request.method : '';
      this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
      if (request.id === undefined || request.id === null) return;
      let reply: Record<string, unknown>;
      try {
        const params = this.handle(method, request.params, socket, id);
        if (params === undefined) {
          socket.close();
          return;
        }
        reply = { id: request.id, method, params };
      } catch (error) {
        reply = { id: request.id, method, error: { code: 0, message: (error as Error).message, data: null } };
      }
      socket.send(stringifyJsonExact(reply));
    });
  }

  /** The response params; undefined for a method kaspad does not have (the connection is dropped). */
  private handle(method: string, params: unknown, socket: WebSocket, connection: number): unknown {
    const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
    switch (method) {
      case 'subscribe':
        if (!('NewBlockTemplate' in p)) throw new Error('request deserialization error');
        this.subscribers.add(socket);
        return { id: connection };
      case 'getBlockTemplate':
        return this.getBlockTemplate(p);
      case 'submitBlock':
        return { report: this.submitBlock(p).report };
      case 'getBlock':
        return this.getBlock(p);
      case 'getBlockDagInfo':
        return this.dagInfo();
      case 'submitTransaction':
        return this.submitTransaction(p);
      case 'getUtxosByAddresses':
        return this.getUtxosByAddresses(p);
      case 'getBalanceByAddress':
        return this.getBalanceByAddress(p);
      case 'getMempoolEntry':
        return this.getMempoolEntry(p);
      case 'getVirtualChainFromBlock':
        return this.getVirtualChainFromBlock(p);
      case 'getFeeEstimate': {
        const bucket = (feerate: number, estimatedSeconds: number) => ({ feerate, estimatedSeconds });
        return {
          estimate: {
            priorityBucket: bucket(this.feeEstimate.priority, 0.1),
            normalBuckets: this.feeEstimate.normal.map((f, i) => bucket(f, 30 * (i + 1))),
            lowBuckets: this.feeEstimate.low.map((f, i) => bucket(f, 3600 * (i + 1))),
          },
        };
      }
      case 'getSink':
        return { sink: this.sink.hash };
      case 'getServerInfo':
        return {
          rpcApiVersion: 1,
          rpcApiRevision: 0,
          serverVersion: SERVER_VERSION,
          networkId: this.network,
          hasUtxoIndex: true,
          isSynced: this.synced,
          virtualDaaScore: this.virtualDaaScore,
        };
      default:
        return undefined;
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Calls

  private getBlockTemplate(p: Record<string, unknown>): unknown {
    if (typeof p.payAddress !== 'string' || !Array.isArray(p.extraData))
      throw new Error('request deserialization error');
    let prefix: string;
    try {
      prefix = decodeKaspaAddress(p.payAddress).prefix;
    } catch {
      throw new Error('request deserialization error');
    }
    if (prefix !== this.prefix) throw new Error(`The address has an invalid prefix ${prefix}`);
    const payScript = payToAddressScript(p.payAddress);
    this.addresses.set(payScript, p.payAddress);
    const extra = Uint8Array.from(p.extraData as number[]);
    const virtual = this.virtual();
    const block = this.buildBlock(virtual, payScript, extra, BigInt(Date.now()));
    const prePow = headerHash(this.hashFields(block.header as Record<string, unknown>), true);
    this.templates.set(prePow, { block, virtual, payScript });
    if (this.templates.size > 2000) this.templates.delete(this.templates.keys().next().value as string);
    return { block, isSynced: this.synced };
  }

  /** Checks and takes a submitted block; records the outcome. */
  private submitBlock(p: Record<string, unknown>): KaspaSubmission {
    const reject = (hash: string, reason: string, why: string): KaspaSubmission => {
      const outcome = { hash, report: { type: 'reject' as const, reason }, why };
      this.submissions.push(outcome);
      return outcome;
    };
    const block = p.block as { header?: Record<string, unknown>; transactions?: unknown } | undefined;
    if (typeof p.allowNonDAABlocks !== 'boolean' || !block?.header || !Array.isArray(block.transactions)) {
      throw new Error('request deserialization error');
    }
    let fields: ReturnType<KaspaNodeStandIn['hashFields']>;
    let hash: string;
    try {
      fields = this.hashFields(block.header);
      hash = headerHash(fields);
    } catch (error) {
      return reject('', 'blockInvalid', `header: ${(error as Error).message}`);
    }
    if (!this.synced) return reject(hash, 'isInIBD', 'node is not synced');
    if (this.blocks.has(hash)) return reject(hash, 'blockInvalid', 'block already known');
    const served = this.templates.get(headerHash(fields, true));
    if (!served) return reject(hash, 'blockInvalid', 'header differs from every template served');
    const transactions = block.transactions as TransactionFields[];
    let root: string;
    try {
      root = merkleRoot(transactions.map((tx) => transactionHash(tx)));
    } catch (error) {
      return reject(hash, 'blockInvalid', `transactions: ${(error as Error).message}`);
    }
    if (root !== fields.hashMerkleRoot)
      return reject(hash, 'blockInvalid', `bad merkle root ${root} ≠ ${fields.hashMerkleRoot}`);
    const prePow = Buffer.from(headerHash(fields, true), 'hex');
    const pow = kheavyhash(kaspaPowInput(prePow, BigInt(fields.timestamp), BigInt(fields.nonce)));
    const value = BigInt(`0x${Buffer.from(pow).reverse().toString('hex')}`);
    if (value > targetFromBits(fields.bits)) return reject(hash, 'blockInvalid', 'proof of work above the target');
    this.insert(hash, block.header, block.transactions as Record<string, unknown>[], served.virtual, served.payScript);
    const outcome: KaspaSubmission = { hash, report: { type: 'success' } };
    this.submissions.push(outcome);
    this.notify();
    return outcome;
  }

  private getBlock(p: Record<string, unknown>): unknown {
    if (typeof p.hash !== 'string' || typeof p.includeTransactions !== 'boolean') {
      throw new Error('request deserialization error');
    }
    const block = this.blocks.get(p.hash);
    if (!block) throw new Error(`cannot find header ${p.hash}`);
    return {
      block: {
        header: { hash: block.hash, ...block.header },
        transactions: p.includeTransactions ? block.transactions.map((tx) => this.verboseTransaction(tx, block)) : [],
        verboseData: {
          hash: block.hash,
          difficulty: 1,
          selectedParentHash: block.selectedParent ?? '0'.repeat(64),
          transactionIds: block.transactions.map((tx) => transactionIdV0(tx as unknown as TransactionFields)),
          isHeaderOnly: false,
          blueScore: block.blueScore,
          childrenHashes: block.children,
          mergeSetBluesHashes: block.mergeSetBlues,
          mergeSetRedsHashes: block.mergeSetReds,
          isChainBlock: this.chain.has(block.hash),
        },
      },
    };
  }

  private verboseTransaction(tx: Record<string, unknown>, block: DagBlock): unknown {
    const outputs = (tx.outputs as Record<string, unknown>[]).map((output) => {
      const address = this.addresses.get(output.scriptPublicKey as string);
      return {
        ...output,
        verboseData: address ? { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: address } : null,
      };
    });
    const id = transactionIdV0(tx as unknown as TransactionFields);
    return {
      ...tx,
      outputs,
      verboseData: {
        transactionId: id,
        hash: transactionHash(tx as unknown as TransactionFields),
        computeMass: 0,
        blockHash: block.hash,
        blockTime: block.header.timestamp,
      },
    };
  }

  /** submitTransaction: kaspad's mempool admission of an RPC transaction (orphans refused). */
  private submitTransaction(p: Record<string, unknown>): unknown {
    if (typeof p.allowOrphan !== 'boolean') throw new Error('request deserialization error: allowOrphan');
    const tx = readRpcTransaction(p.transaction);
    if (tx.version !== 0) throw this.refuse('Rejected transaction: the stand-in accepts version-0 transactions only');
    const json = p.transaction as Record<string, unknown>;
    const id = transactionIdV0(json as unknown as TransactionFields);
    const reject = (reason: string) => this.refuse(`Rejected transaction ${id}: ${reason}`);
    // mining/src/mempool/validate_and_insert_transaction.rs: accepted, then duplicate, then the rest.
    if (this.accepted.has(id)) throw reject(`transaction ${id} was already accepted by the consensus`);
    if (this.mempool.has(id)) throw reject(`transaction ${id} is already in the mempool`);
    const outpoints = tx.inputs.map((input) => `${input.transactionId}:${input.index}`);
    for (const [i, outpoint] of outpoints.entries()) {
      const spender = [...this.mempool.values()].find((m) => m.outpoints.includes(outpoint));
      const input = tx.inputs[i] as (typeof tx.inputs)[number];
      if (spender) {
        throw reject(
          `output (${input.transactionId}, ${input.index}) already spent by transaction ${spender.id} in the mempool`,
        );
      }
    }
    let fee: bigint;
    try {
      ({ fee } = verifyTransaction(tx, {
        id,
        entries: outpoints.map((o) => this.utxos.get(o)),
        virtualDaaScore: this.virtualDaaScore,
        coinbaseMaturity: this.coinbaseMaturity,
      }));
    } catch (error) {
      if (error instanceof KaspadRejection) throw this.refuse(error.message);
      throw error;
    }
    this.mempool.set(id, {
      id,
      transaction: json,
      fee,
      outpoints,
      outputs: tx.outputs.map((o) => ({
        value: o.value,
        scriptPublicKey: o.spkVersion.toString(16).padStart(4, '0') + Buffer.from(o.script).toString('hex'),
      })),
    });
    return { transactionId: id };
  }

  private refuse(message: string): Error {
    this.refusals.push(message);
    return new Error(message);
  }

  private addressScripts(p: Record<string, unknown>, field: 'addresses' | 'address'): Map<string, string> {
    const list = field === 'addresses' ? p.addresses : [p.address];
    if (!Array.isArray(list) || list.some((a) => typeof a !== 'string'))
      throw new Error('request deserialization error');
    const scripts = new Map<string, string>();
    for (const address of list as string[]) {
      let prefix: string;
      try {
        prefix = decodeKaspaAddress(address).prefix;
      } catch {
        throw new Error('request deserialization error');
      }
      if (prefix !== this.prefix) throw new Error(`The address has an invalid prefix ${prefix}`);
      scripts.set(payToAddressScript(address), address);
    }
    return scripts;
  }

  private getUtxosByAddresses(p: Record<string, unknown>): unknown {
    const scripts = this.addressScripts(p, 'addresses');
    const entries = [...this.utxos.values()]
      .filter((u) => scripts.has(u.scriptPublicKey))
      .map((u) => ({
        address: scripts.get(u.scriptPublicKey),
        outpoint: { transactionId: u.transactionId, index: u.index },
        utxoEntry: {
          amount: u.amount,
          scriptPublicKey: u.scriptPublicKey,
          blockDaaScore: u.blockDaaScore,
          isCoinbase: u.isCoinbase,
          covenantId: null,
        },
      }));
    return { entries };
  }

  private getBalanceByAddress(p: Record<string, unknown>): unknown {
    const [script] = [...this.addressScripts(p, 'address').keys()];
    let balance = 0n;
    for (const u of this.utxos.values()) if (u.scriptPublicKey === script) balance += u.amount;
    return { balance };
  }

  private getMempoolEntry(p: Record<string, unknown>): unknown {
    if (
      typeof p.transactionId !== 'string' ||
      typeof p.includeOrphanPool !== 'boolean' ||
      typeof p.filterTransactionPool !== 'boolean'
    ) {
      throw new Error('request deserialization error');
    }
    const entry = this.mempool.get(p.transactionId);
    // rpc/core/src/error.rs TransactionNotFound; RpcMempoolEntry has no rename, hence is_orphan.
    if (!entry || p.filterTransactionPool) throw new Error(`Transaction ${p.transactionId} not found`);
    return { mempoolEntry: { fee: entry.fee, transaction: entry.transaction, is_orphan: false } };
  }

  /** The chain from `startHash` to the sink: blocks removed (when it left the chain) and added, with accepted ids. */
  private getVirtualChainFromBlock(p: Record<string, unknown>): unknown {
    if (typeof p.startHash !== 'string' || typeof p.includeAcceptedTransactionIds !== 'boolean') {
      throw new Error('request deserialization error');
    }
    if (!this.blocks.has(p.startHash)) throw new Error(`cannot find header ${p.startHash}`);
    const removed: string[] = [];
    let fork = this.blocks.get(p.startHash) as DagBlock;
    while (!this.chain.has(fork.hash)) {
      removed.push(fork.hash);
      fork = this.blocks.get(fork.selectedParent as string) as DagBlock;
    }
    const added: string[] = [];
    for (
      let b: DagBlock = this.sink;
      b.hash !== fork.hash;
      b = this.blocks.get(b.selectedParent as string) as DagBlock
    ) {
      added.push(b.hash);
    }
    added.reverse();
    return {
      removedChainBlockHashes: removed,
      addedChainBlockHashes: added,
      acceptedTransactionIds: p.includeAcceptedTransactionIds
        ? added.map((hash) => ({ acceptingBlockHash: hash, acceptedTransactionIds: this.acceptedBy.get(hash) ?? [] }))
        : [],
    };
  }

  /** A new sink accepts the mempool: inputs leave the UTXO set, outputs join it at the block's DAA score. */
  private acceptMempool(block: DagBlock): void {
    const ids: string[] = [];
    for (const tx of this.mempool.values()) {
      if (!tx.outpoints.every((o) => this.utxos.has(o))) continue;
      for (const o of tx.outpoints) this.utxos.delete(o);
      tx.outputs.forEach((output, index) => {
        this.utxos.set(`${tx.id}:${index}`, {
          transactionId: tx.id,
          index,
          amount: output.value,
          scriptPublicKey: output.scriptPublicKey,
          spkVersion: 0,
          script: Buffer.from(output.scriptPublicKey.slice(4), 'hex'),
          blockDaaScore: block.daaScore,
          isCoinbase: false,
        });
      });
      this.accepted.set(tx.id, block.hash);
      ids.push(tx.id);
    }
    this.mempool.clear();
    this.acceptedBy.set(block.hash, ids);
  }

  private dagInfo(): unknown {
    return {
      network: this.network,
      blockCount: BigInt(this.blocks.size),
      headerCount: BigInt(this.blocks.size),
      tipHashes: [...this.tips],
      difficulty: 1,
      pastMedianTime: BigInt(Date.now() - 1000),
      virtualParentHashes: [...this.tips].sort(),
      pruningPointHash: this.genesis,
      virtualDaaScore: this.virtualDaaScore,
      sink: this.sink.hash,
    };
  }

  // -------------------------------------------------------------------------------------------------
  // The DAG

  /** The next block on all tips. */
  private virtual(): Virtual {
    return this.virtualOf([...this.tips]);
  }

  /**
   * A block on `parents`: the selected parent is the parent with the most blue work that is not marked
   * red; the others are merged, blue unless marked red. (Every block is made on all tips, so the
   * mergeset is just the other parents.)
   */
  private virtualOf(parentHashes: string[]): Virtual {
    const parents = parentHashes.map((h) => this.blocks.get(h) as DagBlock);
    const candidates = parents.filter((b) => !this.redMarks.has(b.hash));
    const pool = candidates.length > 0 ? candidates : parents;
    const selectedParent = pool.reduce((best, b) => (b.blueWork > best.blueWork ? b : best));
    const others = parents.filter((b) => b !== selectedParent);
    const blues = [selectedParent.hash, ...others.filter((b) => !this.redMarks.has(b.hash)).map((b) => b.hash)];
    const reds = others.filter((b) => this.redMarks.has(b.hash)).map((b) => b.hash);
    // A block's blue work adds the work of each blue in its mergeset, at that block's own target.
    const work = blues.reduce((sum, h) => sum + blockWork(Number((this.blocks.get(h) as DagBlock).header.bits)), 0n);
    return {
      parents: [...parentHashes].sort(),
      selectedParent,
      mergeSetBlues: blues,
      mergeSetReds: reds,
      blueScore: selectedParent.blueScore + BigInt(blues.length),
      blueWork: selectedParent.blueWork + work,
      daaScore: selectedParent.daaScore + BigInt(parents.length),
    };
  }

  /** The compact target of the virtual's block made at `timestamp` (ms). */
  private bitsOf(virtual: Virtual, timestamp: bigint): number {
    const { retarget } = this.options;
    if (!retarget) return this.bits;
    const parent = virtual.selectedParent;
    const time = Number(parent.header.timestamp as bigint);
    return retarget({ blueScore: Number(parent.blueScore), timestampMs: time }, Number(timestamp));
  }

  /** The block (RpcRawBlock JSON) the virtual makes, paying `payScript`. */
  private buildBlock(
    virtual: Virtual,
    payScript: string,
    extra: Uint8Array,
    timestamp: bigint,
  ): Record<string, unknown> {
    const outputs: { value: bigint; scriptPublicKey: string; covenant: null; verboseData: null }[] = [];
    for (const hash of virtual.mergeSetBlues) {
      const blue = this.blocks.get(hash) as DagBlock;
      outputs.push({ value: blue.subsidy, scriptPublicKey: blue.payScript, covenant: null, verboseData: null });
    }
    const redReward = virtual.mergeSetReds.reduce((sum, h) => sum + (this.blocks.get(h) as DagBlock).subsidy, 0n);
    if (redReward > 0n)
      outputs.push({ value: redReward, scriptPublicKey: payScript, covenant: null, verboseData: null });
    const payload = writeCoinbasePayload({
      blueScore: virtual.blueScore,
      subsidy: this.subsidy,
      scriptPublicKey: payScript,
      extraData: Uint8Array.from([...Buffer.from(`${SERVER_VERSION}/`), ...extra]),
    });
    const coinbase = {
      version: 0,
      inputs: [],
      outputs,
      lockTime: 0,
      subnetworkId: COINBASE_SUBNETWORK,
      gas: 0,
      payload,
      storageMass: 0,
      mass: 0,
      verboseData: null,
    };
    const header = {
      version: 1,
      parentsByLevel: [virtual.parents, [this.genesis]],
      hashMerkleRoot: merkleRoot([transactionHash(coinbase)]),
      acceptedIdMerkleRoot: virtual.selectedParent.header.hashMerkleRoot,
      utxoCommitment: EMPTY_MUHASH,
      timestamp,
      bits: this.bitsOf(virtual, timestamp),
      nonce: 0,
      daaScore: virtual.daaScore,
      blueWork: virtual.blueWork.toString(16).padStart(48, '0'),
      blueScore: virtual.blueScore,
      pruningPoint: this.genesis,
    };
    return { header, transactions: [coinbase] };
  }

  private addNetworkBlock(virtual: Virtual): string {
    const block = this.buildBlock(virtual, NETWORK_SCRIPT, new Uint8Array(), BigInt(Date.now()));
    const header = { ...(block.header as Record<string, unknown>), nonce: randomBytes(8).readBigUInt64LE() };
    const hash = headerHash(this.hashFields(header));
    this.insert(hash, header, block.transactions as Record<string, unknown>[], virtual, NETWORK_SCRIPT);
    return hash;
  }

  private insert(
    hash: string,
    header: Record<string, unknown>,
    transactions: Record<string, unknown>[],
    virtual: Virtual,
    payScript: string,
  ): void {
    const block: DagBlock = {
      hash,
      header,
      transactions,
      parents: virtual.parents,
      selectedParent: virtual.selectedParent.hash,
      mergeSetBlues: virtual.mergeSetBlues,
      mergeSetReds: virtual.mergeSetReds,
      blueScore: virtual.blueScore,
      blueWork: virtual.blueWork,
      daaScore: virtual.daaScore,
      children: [],
      subsidy: this.subsidy,
      payScript,
    };
    this.blocks.set(hash, block);
    for (const parent of block.parents) {
      this.blocks.get(parent)?.children.push(hash);
      this.tips.delete(parent);
      // A merged block's mark is spent: it is red for good.
      if (block.mergeSetReds.includes(parent)) this.redMarks.delete(parent);
    }
    this.tips.add(hash);
    if (block.blueWork > this.sink.blueWork) {
      this.sink = block;
      this.acceptMempool(block);
      this.chain.clear();
      for (
        let b: DagBlock | undefined = block;
        b;
        b = b.selectedParent ? this.blocks.get(b.selectedParent) : undefined
      ) {
        this.chain.add(b.hash);
      }
    }
  }

  private makeGenesis(daaScore: bigint): DagBlock {
    const header = {
      version: 1,
      parentsByLevel: [],
      hashMerkleRoot: '0'.repeat(64),
      acceptedIdMerkleRoot: '0'.repeat(64),
      utxoCommitment: EMPTY_MUHASH,
      timestamp: BigInt(Date.now() - 60_000),
      bits: this.bits,
      nonce: 0n,
      daaScore,
      blueWork: '0',
      blueScore: 0n,
      pruningPoint: '0'.repeat(64),
    };
    const hash = headerHash(this.hashFields(header));
    const genesis: DagBlock = {
      hash,
      header,
      transactions: [],
      parents: [],
      selectedParent: undefined,
      mergeSetBlues: [],
      mergeSetReds: [],
      blueScore: 0n,
      blueWork: 0n,
      daaScore,
      children: [],
      subsidy: 0n,
      payScript: NETWORK_SCRIPT,
    };
    this.blocks.set(hash, genesis);
    this.tips.add(hash);
    this.chain.add(hash);
    return genesis;
  }

  /** A header object as JSON carries it, checked just enough to hash. */
  private hashFields(h: Record<string, unknown>) {
    const hex32 = (v: unknown, name: string): string => {
      if (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v)) throw new Error(`${name} is not a hash`);
      return v;
    };
    const int = (v: unknown, name: string): bigint => {
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) return BigInt(v);
      throw new Error(`${name} is not an integer`);
    };
    if (!Array.isArray(h.parentsByLevel)) throw new Error('parentsByLevel is not an array');
    return {
      version: Number(int(h.version, 'version')),
      parentsByLevel: (h.parentsByLevel as unknown[][]).map((level) => level.map((p) => hex32(p, 'parent'))),
      hashMerkleRoot: hex32(h.hashMerkleRoot, 'hashMerkleRoot'),
      acceptedIdMerkleRoot: hex32(h.acceptedIdMerkleRoot, 'acceptedIdMerkleRoot'),
      utxoCommitment: hex32(h.utxoCommitment, 'utxoCommitment'),
      timestamp: int(h.timestamp, 'timestamp'),
      bits: Number(int(h.bits, 'bits')),
      nonce: int(h.nonce, 'nonce'),
      daaScore: int(h.daaScore, 'daaScore'),
      blueScore: int(h.blueScore, 'blueScore'),
      blueWork: typeof h.blueWork === 'string' ? h.blueWork : '0',
      pruningPoint: hex32(h.pruningPoint, 'pruningPoint'),
    };
  }
}

/** The work of one block at `bits`: 2^256 / (target + 1). */
function blockWork(bits: number): bigint {
  return (1n << 256n) / (targetFromBits(bits) + 1n);
}
