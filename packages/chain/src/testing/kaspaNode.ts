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
 * Test controls: `setSynced`, `advance`, `notify`, `markRed` (the next chain block merges that
 * block red), `dropConnections`. Not for production code.
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

export interface KaspaNodeOptions {
  /** Address prefix the node accepts (default `kaspadev`); its network name follows from it. */
  prefix?: 'kaspa' | 'kaspatest' | 'kaspadev' | 'kaspasim';
  /** Compact target of every template (default 0x207fffff: about every other hash is a block). */
  bits?: number;
  /** Subsidy of every block in sompi (default 10 KAS). */
  subsidy?: bigint;
  /** DAA score of the genesis block (default 300 000 000 000, about mainnet's). */
  genesisDaaScore?: bigint;
  /** New-template notifications per second (0: only when a block arrives or `notify()` is called). */
  templateRateHz?: number;
  /** With a rate: whether the network adds a block at each tick (default true), as at 10 BPS. */
  advanceOnTick?: boolean;
  isSynced?: boolean;
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
    const work = blockWork(this.bits);
    return {
      parents: [...parentHashes].sort(),
      selectedParent,
      mergeSetBlues: blues,
      mergeSetReds: reds,
      blueScore: selectedParent.blueScore + BigInt(blues.length),
      blueWork: selectedParent.blueWork + work * BigInt(blues.length),
      daaScore: selectedParent.daaScore + BigInt(parents.length),
    };
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
      bits: this.bits,
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
