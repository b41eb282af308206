/**
 * A stand-in for dogecoind (or Bellscoin's daemon, which keeps the same calls) as a merged-mining aux
 * daemon, over its real transport: JSON-RPC 1.0 over HTTP with basic auth. It hands out aux blocks it
 * really built (own coinbase paying the asked address, merkle root, AuxPoW version), checks submitted
 * proofs with its own code (auxProof.ts, not the pool's ../auxpow/) and extends its chain on success.
 *
 * Facts, from dogecoin/dogecoin as stored in the reference index (the whole repository was too large to
 * fetch, so files were read one by one):
 * - src/rpc/auxpow.cpp @ 2c513d0172e8bc86fe9a337693b26f2fdf68a013, with src/rpc/auxcache.cpp @
 *   68449fcf59d121a3b8cf07b21d0ca76fed4bd09d (the older src/rpc/mining.cpp @
 *   2076361f88d192fdc9f14fb1dfef0f99c07f6075 has the same fields and cache, but reads the hash and
 *   proof without ParseHashV / DecodeAuxPow's checks):
 *   - createauxblock <address>: an invalid address is -8 "Invalid coinbase payout address". The answer is
 *     {hash, chainid, previousblockhash, coinbasevalue, bits ("%08x"), height, target} where `target` is
 *     HexStr of the arith_uint256: the target's bytes least significant first ("target in reversed byte
 *     order"). The field is `_target` only when dogecoind runs with -rpcnamecoinapi (option namecoinApi).
 *   - Blocks are cached per payout script: the same block comes back until the tip moves (or the mempool
 *     changed and 60 s passed: the stand-in has no mempool). The cache is emptied only when a block is
 *     next created on a new tip; until then an old hash can still be submitted.
 *   - submitauxblock <hash> <auxpow>: ParseHashV ("hash must be hexadecimal string (not '…')", "hash must
 *     be of length 64 (not N)", -8), then DecodeAuxPow (-22 "AuxPow decode failed"), then the cache
 *     (-8 "block hash unknown"), then ProcessNewBlock. It answers a bool: true unless the block was checked
 *     and found invalid. A block already stored (a duplicate) and a block on an old tip (stored beside the
 *     tip, qa/rpc-tests/createauxblock.py: "this succeeds but creates a chaintip fork") both answer true.
 *   - getauxblock: no arguments → createauxblock's answer for a wallet address; two → submitauxblock's
 *     bool; any other count → the help text as error -1. The wallet address changes once a block paid
 *     to it is accepted (CReserveScript::KeepScript).
 * - src/auxpow.cpp, src/dogecoin.cpp, src/primitives/pureheader.h: see auxProof.ts. The block hash is
 *   sha256d of the 80-byte header; nVersion = base | VERSION_AUXPOW (1 << 8) | chainId << 16. Base 4, as
 *   today's blocks carry (0x00620104: qa/rpc-tests/createauxblock.py expects version 6422788).
 * - src/miner.cpp @ 009b7153c2cb82dd7b0753a369826dd8721740c0 (IncrementExtraNonce): coinbase scriptSig =
 *   CScript() << height << CScriptNum(extraNonce), extraNonce counting from 1 per previous block; one
 *   output paying the address. getauxblock's wallet script is <pubkey> OP_CHECKSIG (ScriptForMining).
 * - Bitcoin Core 0.14 (Dogecoin 1.14's base) httprpc.cpp / rpc/server.cpp / rpc/blockchain.cpp: 401 with
 *   WWW-Authenticate when auth fails; HTTP 404 for -32601 "Method not found", 400 for -32600, 500 for the
 *   other errors; getblockhash -8 "Block height out of range"; getblock/getblockheader -5 "Block not
 *   found", confirmations -1 off the main chain.
 * Address prefixes (base58Prefixes): mainnet P2PKH 30 / P2SH 22, regtest 111 / 196.
 *
 * The node's wallet (getnewaddress, getbalance, sendmany, gettransaction, listtransactions) is
 * auxWallet.ts: it receives the coinbases of accepted aux blocks paid to its keys and pays from them. Its
 * transactions wait in a mempool of the wallet's own until the next block is built (mineElsewhere, or an
 * aux block created after the send), which then carries them: the merkle root covers them and the
 * coinbase value adds their fees, as GetBlockSubsidy + nFees does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { p2pkhScript } from '../bitcoin/address.js';
import { sha256d } from '../bitcoin/hash.js';
import { merkleRoot } from '../bitcoin/merkle.js';
import { encodeScriptNumber, encodeVarInt, pushData, pushNumber } from '../bitcoin/serialize.js';
import { AUX_REASONS, type AuxProof, checkAuxProof, compactTarget, parseAuxProof } from './auxProof.js';
import {
  AuxWallet,
  addressScript,
  arity,
  bool,
  int,
  type Payment,
  type PendingTx,
  p2pkhAddress,
  parseRawJson,
  plainOf,
  type RawJson,
  RawObject,
  RpcFault,
  str,
  writeJson,
} from './auxWallet.js';

export interface AuxDaemonOptions {
  /** 'DOGE' by default; 'BELLS' for a Bellscoin stand-in (only the chain's seed differs). */
  coin?: string;
  /** The aux chain id (consensus.nAuxpowChainId); Dogecoin's 0x62 by default. */
  chainId?: number;
  /** consensus.fStrictChainId; true by default. */
  strictChainId?: boolean;
  /** `user:password` required by basic auth; none by default. */
  credentials?: string;
  /** Compact target of its aux blocks; regtest's 0x207fffff by default. */
  bits?: number;
  /** Coinbase value in the smallest unit; 10,000 DOGE (1,000,000,000,000 koinu) by default. */
  subsidy?: bigint;
  /** Address prefixes: Dogecoin regtest (P2PKH 111, P2SH 196) by default, or mainnet (30, 22). */
  network?: 'regtest' | 'mainnet';
  /** Answer with `_target` instead of `target`, as dogecoind started with -rpcnamecoinapi does. */
  namecoinApi?: boolean;
  /**
   * Blocks before a coinbase can be spent (consensus nCoinbaseMaturity; spendable at this + 1
   * confirmations): regtest's 60 by default, mainnet's 240 with network 'mainnet'.
   */
  coinbaseMaturity?: number;
  /** The wallet's fee rate (-paytxfee) in koinu per 1000 bytes; 0.01 DOGE (1,000,000) by default. */
  payTxFee?: bigint;
  /** Epoch seconds. */
  now?: () => number;
}

export interface AuxDaemon {
  /** http://[credentials@]127.0.0.1:port/ */
  url(credentials?: string): string;
  readonly chainId: number;
  /** Tip height. */
  height(): number;
  /** Tip hash, RPC hex. */
  tipHash(): string;
  /** Blocks accepted through submitauxblock/getauxblock, in order, with the proof that was accepted. */
  accepted(): { hash: string; height: number; payoutAddress: string; coinbaseValue: bigint; auxpow: string }[];
  /**
   * Every submission with the stand-in's verdict. `reason` is Dogecoin's text when refused; on a
   * submission Dogecoin answers true without a new tip it says why: 'duplicate' or 'side branch'.
   */
  submissions(): { hash: string; accepted: boolean; reason?: string }[];
  /**
   * Another miner extends the chain by `count` blocks (1 by default); the first carries the wallet's
   * unconfirmed transactions.
   */
  mineElsewhere(count?: number): void;
  /** A new address of the node's wallet (getnewaddress): pay aux blocks to it to fund the wallet. */
  walletAddress(): string;
  /** What the wallet has paid through sendmany, oldest first: outputs (change left out), fee, comment. */
  payments(): Payment[];
  /** Fault injection, until set back to 'none'; 'down' refuses connections as a stopped node does. */
  misbehave(kind: 'none' | 'wrong-chain-id' | 'malformed-hash' | 'down'): void;
  close(): Promise<void>;
}

const VERSION_AUXPOW = 1 << 8;
const BASE_VERSION = 4;

interface Block {
  /** RPC hex. */
  hash: string;
  height: number;
  header: Buffer;
  previous: string | undefined;
  time: number;
  coinbase: Buffer;
  payoutScript: Buffer;
  payoutAddress: string;
  /** Subsidy plus the fees of `txs`. */
  coinbaseValue: bigint;
  /** The transactions after the coinbase: the wallet's, taken from its mempool when the block was built. */
  txs: PendingTx[];
  chainWork: bigint;
  auxpow?: { bytes: Buffer; proof: AuxProof };
}

type Submission = { hash: string; accepted: boolean; reason?: string };
type Accepted = ReturnType<AuxDaemon['accepted']>[number];

/** Starts the stand-in on a local port. */
export async function startAuxDaemon(options: AuxDaemonOptions = {}): Promise<AuxDaemon> {
  const node = new AuxNode(options);
  const transport = await listen(options.credentials, (method, params, raw) => node.call(method, params, raw));
  return {
    url: (credentials) => `http://${credentials ? `${credentials}@` : ''}127.0.0.1:${transport.port}/`,
    chainId: node.chainId,
    height: () => node.tip().height,
    tipHash: () => node.tip().hash,
    accepted: () => node.acceptedBlocks.map((a) => ({ ...a })),
    submissions: () => node.submissionLog.map((s) => ({ ...s })),
    mineElsewhere: (count = 1) => {
      for (let i = 0; i < count; i++) node.mineElsewhere();
    },
    walletAddress: () => node.wallet.newAddress(),
    payments: () => node.wallet.payments(),
    misbehave: (kind) => {
      node.fault = kind === 'down' ? 'none' : kind;
      transport.setDown(kind === 'down');
    },
    close: transport.close,
  };
}

/** The chain, the aux block cache and the RPC methods; no I/O. */
class AuxNode {
  readonly chainId: number;
  fault: 'none' | 'wrong-chain-id' | 'malformed-hash' = 'none';
  readonly acceptedBlocks: Accepted[] = [];
  readonly submissionLog: Submission[] = [];
  readonly wallet: AuxWallet;

  private readonly options: AuxDaemonOptions;
  private readonly now: () => number;
  private readonly bits: number;
  private readonly network: 'regtest' | 'mainnet';
  /** The main chain by height. */
  private readonly chain: Block[] = [];
  /** Every stored block, main chain or not. */
  private readonly byHash = new Map<string, Block>();
  /** Created aux blocks by hash and by payout script, valid for the tip they were built on. */
  private readonly pending = new Map<string, Block>();
  private readonly pendingByScript = new Map<string, string>();
  private pendingTip: string | undefined;
  private extraNonce = { previous: '', value: 0 };

  constructor(options: AuxDaemonOptions) {
    this.options = options;
    this.chainId = options.chainId ?? 0x62;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.bits = options.bits ?? 0x207fffff;
    this.network = options.network ?? 'regtest';
    this.wallet = new AuxWallet({
      coin: options.coin ?? 'DOGE',
      network: this.network,
      coinbaseMaturity: options.coinbaseMaturity ?? (this.network === 'mainnet' ? 240 : 60),
      ...(options.payTxFee !== undefined && { payTxFee: options.payTxFee }),
      now: this.now,
      chain: {
        tip: () => ({ height: this.tip().height, time: this.tip().time }),
        onMainChain: (hash) => {
          const block = this.byHash.get(hash);
          return block && this.onMainChain(block) ? { height: block.height, time: block.time } : undefined;
        },
      },
    });
    // The stand-in's own genesis (not Dogecoin's): its hash only has to be stable per coin.
    const seed = sha256d(Buffer.from(`${options.coin ?? 'DOGE'} stand-in genesis`)).subarray(0, 20);
    const genesis = this.build(undefined, p2pkhScript(seed), this.p2pkh(seed), 1, this.now() - 60, 1, []);
    this.store(genesis);
  }

  tip(): Block {
    return this.chain[this.chain.length - 1] as Block;
  }

  call(method: string, params: unknown[], raw: RawJson[]): unknown {
    switch (method) {
      case 'createauxblock': {
        arity(params, 1, 1, 'createauxblock <address>');
        const address = str(params[0]);
        const script = addressScript(address, this.network);
        if (script === undefined) throw new RpcFault(-8, 'Invalid coinbase payout address');
        return this.auxBlock(script, address);
      }
      case 'submitauxblock':
        arity(params, 2, 2, 'submitauxblock <hash> <auxpow>');
        return this.submit(params[0], params[1], false);
      case 'getauxblock': {
        if (params.length !== 0 && params.length !== 2) throw new RpcFault(-1, 'getauxblock (hash auxpow)');
        // ScriptForMining: the wallet's reserved key, paid as <pubkey> OP_CHECKSIG.
        const wallet = this.wallet.miningScript();
        if (params.length === 0) return this.auxBlock(wallet.script, wallet.address);
        return this.submit(params[0], params[1], true);
      }
      case 'getbestblockhash':
        arity(params, 0, 0, 'getbestblockhash');
        return this.tip().hash;
      case 'getblockcount':
        arity(params, 0, 0, 'getblockcount');
        return this.tip().height;
      case 'getblockhash': {
        arity(params, 1, 1, 'getblockhash height');
        const height = int(params[0]);
        const block = this.chain[height];
        if (height < 0 || block === undefined) throw new RpcFault(-8, 'Block height out of range');
        return block.hash;
      }
      case 'getblockheader': {
        arity(params, 1, 2, 'getblockheader "hash" ( verbose )');
        const block = this.find(str(params[0]));
        if (params[1] !== undefined && !bool(params[1])) {
          return Buffer.concat([block.header, block.auxpow?.bytes ?? Buffer.alloc(0)]).toString('hex');
        }
        return this.headerJson(block);
      }
      case 'getblock': {
        arity(params, 1, 2, 'getblock "blockhash" ( verbose )');
        const block = this.find(str(params[0]));
        const bytes = serializeBlock(block);
        if (params[1] !== undefined && !bool(params[1])) return bytes.toString('hex');
        return this.blockJson(block, bytes);
      }
      case 'validateaddress': {
        arity(params, 1, 1, 'validateaddress "address"');
        const address = str(params[0]);
        const script = addressScript(address, this.network);
        if (script === undefined) return { isvalid: false };
        const key = this.wallet.keyOf(address);
        return {
          isvalid: true,
          address,
          scriptPubKey: script.toString('hex'),
          ismine: key !== undefined,
          iswatchonly: false,
          isscript: script[0] === 0xa9,
          // DescribeAddressVisitor adds the key of an address of ours; the address book adds its account.
          ...(key && { pubkey: key.pubkey.toString('hex'), iscompressed: true }),
          ...(key?.account !== undefined && { account: key.account }),
        };
      }
      default: {
        const walletMethod = this.wallet.methods[method];
        if (walletMethod === undefined) throw new RpcFault(-32601, 'Method not found');
        return walletMethod(params, raw);
      }
    }
  }

  /** Another miner's block on the tip: a header and coinbase of its own, the mempool, no proof kept. */
  mineElsewhere(): void {
    const tip = this.tip();
    const payee = sha256d(Buffer.from(`another miner ${tip.height + 1}`)).subarray(0, 20);
    const time = this.blockTime(tip);
    const block = this.build(tip, p2pkhScript(payee), this.p2pkh(payee), 1, time, BASE_VERSION, this.wallet.mempool());
    this.store(block);
  }

  /** AuxMiningCreateBlock: the cached block for this script, or a new one on the tip. */
  private auxBlock(script: Buffer, address: string): Record<string, unknown> {
    const tip = this.tip();
    const key = script.toString('hex');
    let block = this.pendingTip === tip.hash ? this.pending.get(this.pendingByScript.get(key) ?? '') : undefined;
    if (block === undefined) {
      if (this.pendingTip !== tip.hash) {
        this.pending.clear();
        this.pendingByScript.clear();
      }
      if (this.extraNonce.previous !== tip.hash) this.extraNonce = { previous: tip.hash, value: 0 };
      this.extraNonce.value++;
      const version = BASE_VERSION | VERSION_AUXPOW | (this.chainId << 16);
      const time = this.blockTime(tip);
      block = this.build(tip, script, address, this.extraNonce.value, time, version, this.wallet.mempool());
      this.pending.set(block.hash, block);
      this.pendingByScript.set(key, block.hash);
      this.pendingTip = tip.hash;
    }
    const { target, negative, overflow } = compactTarget(this.bits);
    if (negative || overflow || target === 0n) throw new RpcFault(-1, 'invalid difficulty bits in block');
    let hash = block.hash;
    let chainId = block.header.readInt32LE(0) >> 16;
    if (this.fault === 'malformed-hash') hash = hash.slice(0, 62);
    if (this.fault === 'wrong-chain-id') chainId = chainId === 0x62 ? 0x10 : 0x62;
    return {
      hash,
      chainid: chainId,
      previousblockhash: block.previous,
      coinbasevalue: Number(block.coinbaseValue),
      bits: this.bits.toString(16).padStart(8, '0'),
      height: block.height,
      [this.options.namecoinApi ? '_target' : 'target']: le256(target).toString('hex'),
    };
  }

  /** submitauxblock / getauxblock with arguments. */
  private submit(hashParam: unknown, auxpowParam: unknown, viaWallet: boolean): boolean {
    const hashText = typeof hashParam === 'string' ? hashParam : '';
    // Logs a refusal that comes back as a JSON-RPC error rather than as false.
    const fault = (code: number, message: string): RpcFault => {
      this.submissionLog.push({ hash: hashText, accepted: false, reason: message });
      return new RpcFault(code, message);
    };
    if (!isHex(hashText)) throw fault(-8, `hash must be hexadecimal string (not '${hashText}')`);
    if (hashText.length !== 64) throw fault(-8, `hash must be of length 64 (not ${hashText.length})`);
    const hash = hashText.toLowerCase();
    if (typeof auxpowParam !== 'string') throw fault(-1, 'JSON value is not a string as expected');
    const auxpow = decodeAuxPow(auxpowParam);
    if (auxpow === undefined) throw fault(-22, AUX_REASONS.decodeFailed);
    const block = this.pending.get(hash);
    if (block === undefined) throw fault(-8, 'block hash unknown');

    const verdict = checkAuxProof(auxpow.proof, hash, {
      chainId: block.header.readInt32LE(0) >> 16,
      strictChainId: this.options.strictChainId ?? true,
      target: compactTarget(block.header.readUInt32LE(72)).target,
    });
    if (!verdict.ok) {
      this.submissionLog.push({ hash, accepted: false, reason: verdict.reason });
      return false;
    }
    // getauxblock keeps the wallet key once its answer is true: the next block pays a new address.
    if (viaWallet) this.wallet.keepMiningKey();
    if (this.byHash.has(hash)) {
      // AcceptBlock "already has" it: no new block state, nothing refused, so the answer is true.
      this.submissionLog.push({ hash, accepted: true, reason: 'duplicate' });
      return true;
    }
    const stored = { ...block, auxpow };
    const onTip = this.store(stored);
    this.acceptedBlocks.push({
      hash,
      height: stored.height,
      payoutAddress: stored.payoutAddress,
      coinbaseValue: stored.coinbaseValue,
      auxpow: auxpow.bytes.toString('hex'),
    });
    this.submissionLog.push(onTip ? { hash, accepted: true } : { hash, accepted: true, reason: 'side branch' });
    return true;
  }

  /**
   * Stores a block; it becomes the tip when it builds on the tip. A block built on an older tip has no
   * more work than the tip (it is at most as high), so it stays beside the chain: first seen wins.
   */
  private store(block: Block): boolean {
    this.byHash.set(block.hash, block);
    const onTip = this.chain.length === 0 || block.previous === this.tip().hash;
    if (onTip) {
      this.chain.push(block);
      this.wallet.blockConnected({
        hash: block.hash,
        time: block.time,
        coinbase: {
          txid: rpcHex(sha256d(block.coinbase)),
          raw: block.coinbase,
          script: block.payoutScript,
          value: block.coinbaseValue,
        },
        txids: block.txs.map((tx) => tx.txid),
      });
    }
    return onTip;
  }

  private build(
    previous: Block | undefined,
    script: Buffer,
    payoutAddress: string,
    extraNonce: number,
    time: number,
    version: number,
    txs: PendingTx[],
  ): Block {
    const height = previous === undefined ? 0 : previous.height + 1;
    const fees = txs.reduce((sum, tx) => sum + tx.fee, 0n);
    const coinbaseValue = (this.options.subsidy ?? 1_000_000_000_000n) + fees;
    const scriptSig = Buffer.concat([pushNumber(height), pushData(encodeScriptNumber(extraNonce))]);
    const coinbase = Buffer.concat([
      int32LE(1),
      encodeVarInt(1),
      Buffer.alloc(32),
      Buffer.from('ffffffff', 'hex'),
      encodeVarInt(scriptSig.length),
      scriptSig,
      Buffer.from('ffffffff', 'hex'),
      encodeVarInt(1),
      u64LE(coinbaseValue),
      encodeVarInt(script.length),
      script,
      int32LE(0),
    ]);
    const header = Buffer.alloc(80);
    header.writeInt32LE(version, 0);
    if (previous) Buffer.from(previous.hash, 'hex').reverse().copy(header, 4);
    const txids = [sha256d(coinbase), ...txs.map((tx) => Buffer.from(tx.txid, 'hex').reverse())];
    merkleRoot(txids).copy(header, 36);
    header.writeUInt32LE(time, 68);
    header.writeUInt32LE(this.bits, 72);
    const hash = Buffer.from(sha256d(header)).reverse().toString('hex');
    const work = blockProof(this.bits);
    return {
      hash,
      height,
      header,
      previous: previous?.hash,
      time,
      coinbase,
      payoutScript: script,
      payoutAddress,
      coinbaseValue,
      txs,
      chainWork: (previous?.chainWork ?? 0n) + work,
    };
  }

  /** UpdateTime: the later of now and the median time past + 1. */
  private blockTime(previous: Block): number {
    return Math.max(this.now(), this.medianTimePast(previous) + 1);
  }

  /** GetMedianTimePast: the median time of the block and up to ten before it. */
  private medianTimePast(block: Block): number {
    const times: number[] = [];
    let b: Block | undefined = block;
    while (b !== undefined && times.length < 11) {
      times.push(b.time);
      b = b.previous === undefined ? undefined : this.byHash.get(b.previous);
    }
    times.sort((x, y) => x - y);
    return times[Math.floor(times.length / 2)] as number;
  }

  private find(hash: string): Block {
    const block = this.byHash.get(hash.toLowerCase());
    if (block === undefined) throw new RpcFault(-5, 'Block not found');
    return block;
  }

  private onMainChain(block: Block): boolean {
    return this.chain[block.height]?.hash === block.hash;
  }

  private headerJson(block: Block): Record<string, unknown> {
    const main = this.onMainChain(block);
    const next = main ? this.chain[block.height + 1] : undefined;
    const version = block.header.readInt32LE(0);
    const bits = block.header.readUInt32LE(72);
    return {
      hash: block.hash,
      confirmations: main ? this.tip().height - block.height + 1 : -1,
      height: block.height,
      version,
      versionHex: (version >>> 0).toString(16).padStart(8, '0'),
      merkleroot: Buffer.from(block.header.subarray(36, 68)).reverse().toString('hex'),
      time: block.time,
      mediantime: this.medianTimePast(block),
      nonce: block.header.readUInt32LE(76),
      bits: bits.toString(16).padStart(8, '0'),
      difficulty: difficulty(bits),
      chainwork: block.chainWork.toString(16).padStart(64, '0'),
      ...(block.previous !== undefined && { previousblockhash: block.previous }),
      ...(next !== undefined && { nextblockhash: next.hash }),
    };
  }

  private blockJson(block: Block, raw: Buffer): Record<string, unknown> {
    const { previousblockhash, nextblockhash, ...header } = this.headerJson(block);
    const proof = block.auxpow?.proof;
    return {
      ...header,
      strippedsize: raw.length,
      size: raw.length,
      weight: raw.length * 4,
      tx: [rpcHex(sha256d(block.coinbase)), ...block.txs.map((tx) => tx.txid)],
      ...(previousblockhash !== undefined && { previousblockhash }),
      ...(nextblockhash !== undefined && { nextblockhash }),
      // AuxpowToJSON; the parent coinbase carries only its hex and txid here.
      ...(proof && {
        auxpow: {
          tx: { hex: proof.coinbase.raw.toString('hex'), txid: rpcHex(proof.coinbase.txid) },
          index: proof.coinbaseIndex,
          chainindex: proof.chainIndex,
          merklebranch: proof.coinbaseBranch.map(rpcHex),
          chainmerklebranch: proof.chainBranch.map(rpcHex),
          parentblock: proof.parentHeader.toString('hex'),
        },
      }),
    };
  }

  private p2pkh(hash: Uint8Array): string {
    return p2pkhAddress(hash, this.network);
  }
}

// ---------------------------------------------------------------------------------------------
// Blocks and numbers

/** The decoded proof, or undefined where DecodeAuxPow fails (not hex, or the stream read throws). */
function decodeAuxPow(hex: string): { bytes: Buffer; proof: AuxProof } | undefined {
  if (!isHex(hex)) return undefined;
  try {
    const bytes = Buffer.from(hex, 'hex');
    const { proof, size } = parseAuxProof(bytes);
    return { bytes: bytes.subarray(0, size), proof };
  } catch {
    return undefined;
  }
}

function serializeBlock(block: Block): Buffer {
  return Buffer.concat([
    block.header,
    block.auxpow?.bytes ?? Buffer.alloc(0),
    encodeVarInt(1 + block.txs.length),
    block.coinbase,
    ...block.txs.map((tx) => tx.raw),
  ]);
}

/** A hash in RPC order (bytes reversed) as hex. */
function rpcHex(hash: Uint8Array): string {
  return Buffer.from(hash).reverse().toString('hex');
}

/** GetBlockProof: the expected number of hashes for a target, ~target / (target + 1) + 1. */
function blockProof(bits: number): bigint {
  const { target, negative, overflow } = compactTarget(bits);
  if (negative || overflow || target === 0n) return 0n;
  return (2n ** 256n - 1n - target) / (target + 1n) + 1n;
}

/** GetDifficulty: 0xffff over the mantissa, scaled by 256 per step of the exponent away from 29. */
function difficulty(bits: number): number {
  let shift = (bits >>> 24) & 0xff;
  let diff = 0xffff / (bits & 0x00ffffff);
  for (; shift < 29; shift++) diff *= 256;
  for (; shift > 29; shift--) diff /= 256;
  return diff;
}

function le256(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex').reverse();
}

function int32LE(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeInt32LE(value);
  return out;
}

function u64LE(value: bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(value);
  return out;
}

function isHex(text: string): boolean {
  return text.length > 0 && text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text);
}

// ---------------------------------------------------------------------------------------------
// Named parameters

/** Named arguments of the methods served (the RPC tables' argument names; the wallet's as in its help). */
const ARG_NAMES: Record<string, readonly string[]> = {
  createauxblock: ['address'],
  submitauxblock: ['hash', 'auxpow'],
  getauxblock: ['hash', 'auxpow'],
  getbestblockhash: [],
  getblockcount: [],
  getblockhash: ['height'],
  getblockheader: ['blockhash', 'verbose'],
  getblock: ['blockhash', 'verbose'],
  validateaddress: ['address'],
  getnewaddress: ['account'],
  getbalance: ['account', 'minconf', 'include_watchonly'],
  sendmany: ['fromaccount', 'amounts', 'minconf', 'comment', 'subtractfeefrom'],
  gettransaction: ['txid', 'include_watchonly'],
  listtransactions: ['account', 'count', 'skip', 'include_watchonly'],
};

/** transformNamedArguments: named → positional, holes as null, unknown names refused. */
function positional(method: string, params: RawObject): RawJson[] {
  const names = ARG_NAMES[method] ?? [];
  const unknown = params.entries.find(([key]) => !names.includes(key));
  if (unknown !== undefined) throw new RpcFault(-8, `Unknown named parameter ${unknown[0]}`);
  const out: RawJson[] = [];
  let hole = 0;
  for (const name of names) {
    const value = params.get(name);
    if (value !== undefined) {
      for (; hole > 0; hole--) out.push(null);
      out.push(value);
    } else {
      hole++;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// HTTP: JSON-RPC 1.0 as Bitcoin Core 0.14's httprpc.cpp serves it

/** A method call: its parameters as JSON.parse gives them, and as written (number literals' own digits). */
type Handler = (method: string, params: unknown[], raw: RawJson[]) => unknown;

interface Transport {
  port: number;
  setDown(down: boolean): void;
  close(): Promise<void>;
}

async function listen(credentials: string | undefined, handle: Handler): Promise<Transport> {
  const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end('JSONRPC server handles only POST requests');
      return;
    }
    // dogecoind also waits 250 ms before a wrong password's 401; the stand-in does not.
    if (expected !== undefined && req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="jsonrpc"' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { status, body } = answer(Buffer.concat(chunks).toString('utf8'), handle);
      // writeJson: amounts go out as the wallet wrote them, not through a double.
      res.writeHead(status, { 'content-type': 'application/json' }).end(`${writeJson(body)}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  let listening = true;
  let closed = false;
  // Listening again on the same port can fail (another process took it meanwhile); that node stays
  // down and close() reports why, rather than the error going nowhere.
  let relistenError: Error | undefined;
  server.on('error', (error: Error) => {
    relistenError = error;
    listening = false;
  });

  const stop = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    port,
    setDown(down) {
      if (closed) return;
      if (down) void stop();
      else if (!listening) {
        // The same port again, as a restarted node would be.
        listening = true;
        server.listen(port, '127.0.0.1');
      }
    },
    async close() {
      closed = true;
      await stop();
      if (relistenError) throw relistenError;
    },
  };
}

/** One HTTP body in, the status and reply out (a batch is answered 200 with one reply per call). */
function answer(text: string, handle: Handler): { status: number; body: unknown } {
  let request: RawJson;
  try {
    request = parseRawJson(text);
  } catch {
    return { status: 500, body: { result: null, error: { code: -32700, message: 'Parse error' }, id: null } };
  }
  if (Array.isArray(request)) return { status: 200, body: request.map((one) => execute(one, handle).body) };
  return execute(request, handle);
}

function execute(request: RawJson, handle: Handler): { status: number; body: unknown } {
  // The id goes back as it came, digit for digit.
  let id: RawJson = null;
  try {
    if (!(request instanceof RawObject)) throw new RpcFault(-32700, 'Top-level object parse error');
    id = request.get('id') ?? null;
    const method = request.get('method');
    if (method === undefined) throw new RpcFault(-32600, 'Missing method');
    if (typeof method !== 'string') throw new RpcFault(-32600, 'Method must be a string');
    const given = request.get('params');
    let raw: RawJson[];
    if (given === undefined || given === null) raw = [];
    else if (Array.isArray(given)) raw = given;
    else if (given instanceof RawObject) raw = positional(method, given);
    else throw new RpcFault(-32600, 'Params must be an array or object');
    const result = handle(method, raw.map(plainOf), raw);
    return { status: 200, body: { result: result ?? null, error: null, id } };
  } catch (error) {
    const fault = error instanceof RpcFault ? error : new RpcFault(-1, String(error));
    const status = fault.code === -32600 ? 400 : fault.code === -32601 ? 404 : 500;
    return { status, body: { result: null, error: { code: fault.code, message: fault.message }, id } };
  }
}
