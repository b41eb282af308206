/**
 * A stand-in for dashd over its real transport (JSON-RPC 1.0 over HTTP, basic auth), for tests where
 * Dash Core cannot be installed. It serves getblocktemplate in Dash Core's shape (src/rpc/mining.cpp:
 * `masternode`, `masternode_payments_started`, `superblock`, `superblocks_started`, `coinbase_payload`,
 * `coinbasevalue` = the node's coinbase GetValueOut()), checks submitted blocks with its own decoding,
 * X11 and merkle computations (dashBlock.ts) and refuses bad ones with Dash Core's reasons, and
 * advances its chain on an accepted block.
 *
 * Its data starts from Dash's published records (dashpay/docs-core, fixtures/README.md): the chain tip
 * is the real testnet block 917286, the payee scripts are those of the real templates and blocks, the
 * CbTx carries the real block's ChainLock signature and credit pool balance, and each template carries
 * the three real quorum commitment special transactions (type 6) of the testnet template at 917411.
 * What the stand-in cannot know (the masternode list and quorum merkle roots of heights it invents) it
 * derives per height; a block must carry exactly what the template gave.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { addressToScript } from '../bitcoin/address.js';
import { sha256d } from '../bitcoin/hash.js';
import { NETWORKS } from '../bitcoin/networks.js';
import { serializeCbTx } from '../dash/cbtx.js';
import {
  type BlockExpectation,
  checkBlockAgainst,
  checkBlockAlone,
  type DashBlock,
  dashBlockHash,
  decodeDashBlock,
  type ExpectedPayee,
} from './dashBlock.js';
import { fakeDaemon, reply } from './fakeDaemon.js';

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

interface RealBlock {
  hash: string;
  height: number;
  time: number;
  bits: string;
  hex: string;
  cbTx: { bestCLSignature: string; creditPoolBalance: number };
}
interface RealTemplate {
  transactions: { data: string; hash: string; fee: number }[];
  masternode: ExpectedPayee[];
}

/** The real testnet block 917286 (Dash Core 21.0.0 getblock example) and template 917411 (Dash Core 20.0.0). */
export const REAL_TESTNET_BLOCK: RealBlock = fixture('dash-testnet-block-917286.json');
export const REAL_TESTNET_TEMPLATE: RealTemplate = fixture('dash-testnet-gbt-917411.json');

/** Regtest's powLimit (Dash Core chainparams.cpp CRegTestParams): nearly every other hash is a block. */
export const EASY_BITS = 0x207fffff;

export interface DashdBlock {
  hash: string;
  height: number;
  time: number;
  hex?: string;
  /** Coinbase txid, RPC hex. */
  coinbaseTxid?: string;
}

export interface DashdOptions {
  /** `user:password` the node requires (rpcuser/rpcpassword); none by default. */
  credentials?: string;
  /** Compact target of the blocks it asks for; EASY_BITS by default. */
  bits?: number;
  /** Block subsidy (duffs) of the blocks it asks for; 2.97386508 DASH (the real block 917286's) by default. */
  subsidy?: bigint;
  /** Masternode payees for a height; by default the v20 shape: the platform share (OP_RETURN) and one masternode. */
  masternode?: (height: number, blockReward: bigint) => ExpectedPayee[];
  /** Superblock payees for a height; none by default. */
  superblock?: (height: number) => ExpectedPayee[];
  /** Carry the real quorum commitments in every template (default true). */
  quorumCommitments?: boolean;
  /** Epoch seconds, for tests. */
  now?: () => number;
}

const MASTERNODE_SCRIPTS = [
  // Payee scripts of the real testnet block 917286 and template 917411, mainnet template 1911041.
  '76a91421eca01872dbfce4bf20886a004f6caaa69c1ff788ac',
  '76a914c69a0bda7daaae481be8def95e5f347a1d00a4b488ac',
  '76a9142f7f1bb68cd5428fc585a79f7f2ad29b0de52efd88ac',
];

/**
 * The v20 masternode payments: 60% of the block reward to masternodes, of which 37.5% is reallocated
 * to the platform credit pool as an OP_RETURN output (Dash Core src/masternode/payments.cpp
 * GetBlockTxOuts, PlatformShare). The real template 917411 has exactly these proportions.
 */
export function v20MasternodePayees(height: number, blockReward: bigint): ExpectedPayee[] {
  const masternodeReward = (blockReward * 60n) / 100n;
  const platform = (masternodeReward * 375n) / 1000n;
  const script = MASTERNODE_SCRIPTS[height % MASTERNODE_SCRIPTS.length] as string;
  return [
    { payee: '', script: '6a', amount: Number(platform) },
    { payee: '', script, amount: Number(masternodeReward - platform) },
  ];
}

export interface Dashd {
  url: (credentials?: string) => string;
  /** The chain, oldest first (starting at the real block 917286). */
  readonly blocks: readonly DashdBlock[];
  tip(): DashdBlock;
  /** Every submitblock answer, in order (null = accepted). */
  readonly submissions: readonly (string | null)[];
  /** The template the stand-in would give now (as the RPC returns it). */
  template(): Record<string, unknown>;
  /** What it checks the next block against. */
  expectation(): BlockExpectation;
  /** Checks a block as submitblock does, without submitting: the reject reason, or null. */
  check(hex: string): string | null;
  /** Mines an empty-ish block of its own on the tip (another miner finding one). */
  advance(): DashdBlock;
}

/** Starts the stand-in on a local port (closed by closeFakeDaemons). */
export async function startDashd(options: DashdOptions = {}): Promise<Dashd> {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const bits = options.bits ?? EASY_BITS;
  const subsidy = options.subsidy ?? 297_386_508n;
  const real = REAL_TESTNET_BLOCK;
  const blocks: DashdBlock[] = [{ hash: real.hash, height: real.height, time: real.time, hex: real.hex }];
  const byHash = new Map(blocks.map((b) => [b.hash, b]));
  const submissions: (string | null)[] = [];
  const longPolls: (() => void)[] = [];
  const quorumTxs = options.quorumCommitments === false ? [] : REAL_TESTNET_TEMPLATE.transactions;

  const tip = () => blocks[blocks.length - 1] as DashdBlock;

  function expectation(): BlockExpectation {
    const t = tip();
    const height = t.height + 1;
    const fees = quorumTxs.reduce((sum, tx) => sum + BigInt(tx.fee), 0n);
    const blockReward = subsidy + fees;
    const seed = (what: string) => sha256d(Buffer.from(`${what}:${t.hash}`));
    const payload = serializeCbTx({
      version: 3,
      height,
      merkleRootMNList: seed('mnlist'),
      merkleRootQuorums: seed('quorums'),
      bestCLHeightDiff: 0,
      bestCLSignature: Buffer.from(real.cbTx.bestCLSignature, 'hex'),
      creditPoolBalance: BigInt(Math.round(real.cbTx.creditPoolBalance * 1e8)),
    });
    return {
      height,
      previousBlockHash: t.hash,
      bits,
      mintime: t.time + 1,
      blockReward,
      masternode: (options.masternode ?? v20MasternodePayees)(height, blockReward),
      superblock: options.superblock?.(height) ?? [],
      coinbasePayload: payload.toString('hex'),
    };
  }

  function template(): Record<string, unknown> {
    const e = expectation();
    const superblockTotal = e.superblock.reduce((sum, p) => sum + BigInt(p.amount), 0n);
    // The node's own coinbase is vout[0] = reward less the masternode payments, then the masternode
    // and superblock outputs; coinbasevalue is its GetValueOut(): the reward plus the superblock.
    const coinbaseValue = e.blockReward + superblockTotal;
    return {
      capabilities: ['proposal'],
      version: 0x20000000,
      rules: ['csv', 'dip0001', 'bip147', 'dip0003', 'dip0008', 'realloc', 'dip0020', 'dip0024', 'v19', 'v20', 'mn_rr'],
      vbavailable: {},
      vbrequired: 0,
      previousblockhash: e.previousBlockHash,
      transactions: quorumTxs.map((tx) => ({ data: tx.data, hash: tx.hash, depends: [], fee: tx.fee, sigops: 0 })),
      coinbaseaux: {},
      coinbasevalue: Number(coinbaseValue),
      longpollid: `${e.previousBlockHash}${blocks.length}`,
      target: (BigInt(bits & 0x7fffff) << BigInt(8 * ((bits >>> 24) - 3))).toString(16).padStart(64, '0'),
      mintime: e.mintime,
      mutable: ['time', 'transactions', 'prevblock'],
      noncerange: '00000000ffffffff',
      sigoplimit: 40000,
      sizelimit: 2000000,
      curtime: Math.max(now(), e.mintime),
      bits: bits.toString(16).padStart(8, '0'),
      previousbits: bits.toString(16).padStart(8, '0'),
      height: e.height,
      masternode: e.masternode,
      masternode_payments_started: true,
      masternode_payments_enforced: true,
      superblock: e.superblock,
      superblocks_started: true,
      superblocks_enabled: true,
      coinbase_payload: e.coinbasePayload,
    };
  }

  function check(hex: string): { reason: string | null; block?: DashBlock; hash?: string } {
    let block: DashBlock;
    try {
      block = decodeDashBlock(Buffer.from(hex, 'hex'));
    } catch {
      throw new RpcFault(-22, 'Block decode failed');
    }
    const coinbase = block.transactions[0];
    const prevout = coinbase?.inputs[0];
    if (
      coinbase?.inputs.length !== 1 ||
      !prevout?.prevTxid.equals(Buffer.alloc(32)) ||
      prevout.prevIndex !== 0xffffffff
    ) {
      throw new RpcFault(-22, 'Block does not start with a coinbase');
    }
    const hash = dashBlockHash(block.headerBytes);
    if (byHash.has(hash)) return { reason: 'duplicate', hash };
    const alone = checkBlockAlone(block);
    if (alone !== undefined) return { reason: alone, hash };
    const parent = byHash.get(block.previousBlockHash);
    if (parent === undefined) return { reason: 'prev-blk-not-found', hash };
    // A valid block on another branch is stored but not connected: submitblock cannot say more.
    if (parent !== tip()) return { reason: 'inconclusive', hash };
    const contextual = checkBlockAgainst(block, expectation());
    return { reason: contextual ?? null, block, hash };
  }

  function connect(block: DashBlock, hash: string, hex?: string): DashdBlock {
    const added: DashdBlock = { hash, height: tip().height + 1, time: block.time };
    if (hex !== undefined) added.hex = hex;
    const coinbase = block.transactions[0];
    if (coinbase) added.coinbaseTxid = Buffer.from(coinbase.txid).reverse().toString('hex');
    blocks.push(added);
    byHash.set(hash, added);
    for (const wake of longPolls.splice(0)) wake();
    return added;
  }

  function advance(): DashdBlock {
    // Another miner's block: the stand-in records it without a body.
    const t = tip();
    const hash = sha256d(Buffer.from(`other-miner:${t.hash}`)).toString('hex');
    const added: DashdBlock = { hash, height: t.height + 1, time: Math.max(now(), t.time + 1) };
    blocks.push(added);
    byHash.set(hash, added);
    for (const wake of longPolls.splice(0)) wake();
    return added;
  }

  const handle = (method: string, params: unknown[]): unknown | Promise<unknown> => {
    switch (method) {
      case 'getblocktemplate': {
        const request = (params[0] ?? {}) as { longpollid?: string };
        const current = template();
        if (request.longpollid === undefined || request.longpollid !== current.longpollid) return current;
        return new Promise((resolve) => longPolls.push(() => resolve(template())));
      }
      case 'submitblock': {
        const hex = String(params[0] ?? '');
        const outcome = check(hex);
        if (outcome.reason === null && outcome.block && outcome.hash) connect(outcome.block, outcome.hash, hex);
        submissions.push(outcome.reason);
        return outcome.reason;
      }
      case 'getbestblockhash':
        return tip().hash;
      case 'getblockcount':
        return tip().height;
      case 'getblockhash': {
        const found = blocks.find((b) => b.height === params[0]);
        if (!found) throw new RpcFault(-8, 'Block height out of range');
        return found.hash;
      }
      case 'getblock': {
        const found = byHash.get(String(params[0]));
        if (!found) throw new RpcFault(-5, 'Block not found');
        if (params[1] === 0) return found.hex ?? '';
        return {
          hash: found.hash,
          height: found.height,
          confirmations: tip().height - found.height + 1,
          time: found.time,
          tx: found.coinbaseTxid ? [found.coinbaseTxid] : [],
        };
      }
      case 'getblockchaininfo':
        return {
          chain: 'test',
          blocks: tip().height,
          headers: tip().height,
          bestblockhash: tip().hash,
          initialblockdownload: false,
        };
      case 'getmininginfo':
        return {
          blocks: tip().height,
          difficulty: 0.0009888562457268011,
          networkhashps: 0,
          pooledtx: 0,
          chain: 'test',
        };
      case 'validateaddress': {
        const address = String(params[0]);
        for (const network of [NETWORKS['dash-testnet'], NETWORKS.dash]) {
          try {
            const script = addressToScript(address, network);
            return { isvalid: true, address, scriptPubKey: script.toString('hex'), isscript: script[0] === 0xa9 };
          } catch {
            // not of this network
          }
        }
        return { isvalid: false };
      }
      default:
        throw new RpcFault(-32601, 'Method not found');
    }
  };

  const daemon = await fakeDaemon((request, res) => {
    if (options.credentials && request.auth !== `Basic ${Buffer.from(options.credentials).toString('base64')}`) {
      res.writeHead(401).end();
      return;
    }
    answer(res, request.id, () => handle(request.method, Array.isArray(request.params) ? request.params : []));
  });

  return {
    url: daemon.url,
    blocks,
    submissions,
    tip,
    template,
    expectation,
    check: (hex) => check(hex).reason,
    advance,
  };
}

/** A JSON-RPC error as dashd sends it (HTTP 500 with `error: {code, message}`). */
class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function answer(res: ServerResponse, id: unknown, run: () => unknown): void {
  Promise.resolve()
    .then(run)
    .then(
      (result) => reply(res, 200, { result: result ?? null, error: null, id }),
      (error: unknown) => {
        if (error instanceof RpcFault)
          reply(res, 500, { result: null, error: { code: error.code, message: error.message }, id });
        else reply(res, 500, { result: null, error: { code: -1, message: String(error) }, id });
      },
    );
}
