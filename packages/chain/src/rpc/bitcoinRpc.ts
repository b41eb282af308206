import type { RpcCaller, RpcCallOptions } from './client.js';
import { Shape } from './shape.js';
import { type BlockTemplate, parseBlockTemplate, type TemplateDialect } from './template.js';

export interface BlockTemplateRequest {
  /** BIP9 rules the pool supports; Bitcoin needs `segwit`, Litecoin `mweb` and `segwit`. */
  rules: readonly string[];
  /** Turns the call into a long poll that returns when the template changes. */
  longPollId?: string;
  capabilities?: readonly string[];
}

export interface BlockchainInfo {
  chain: string;
  blocks: number;
  headers: number;
  bestBlockHash: string;
  initialBlockDownload: boolean;
}

export interface MiningInfo {
  blocks: number;
  difficulty: number;
  networkHashPs: number;
  chain: string;
}

/** One block's fees as getblockstats reports them (Bitcoin Core 0.17+, Litecoin Core 0.18+). */
export interface BlockStats {
  height: number;
  /** RPC hex. */
  hash: string;
  /** The block's timestamp, unix seconds. */
  time: number;
  /** Smallest units. */
  subsidy: bigint;
  /** Σ fees of its transactions, smallest units. */
  totalFee: bigint;
}

/** The getblockstats fields the pool reads: asking for only these spares the node the rest. */
const BLOCK_STATS = ['blockhash', 'height', 'time', 'subsidy', 'totalfee'];

export interface AddressValidation {
  isValid: boolean;
  address?: string;
  /** Hex. */
  scriptPubKey?: string;
}

/** The bitcoin-family RPC calls the pool makes, with typed, checked results. */
export class BitcoinRpc {
  /** `dialect`: how this coin's templates extend getblocktemplate (Dash), when they do. */
  constructor(
    readonly caller: RpcCaller,
    readonly dialect?: TemplateDialect,
  ) {}

  async getBlockTemplate(request: BlockTemplateRequest, options?: RpcCallOptions): Promise<BlockTemplate> {
    const params: Record<string, unknown> = {
      rules: [...request.rules],
      capabilities: [...(request.capabilities ?? ['coinbasevalue', 'longpoll'])],
    };
    if (request.longPollId !== undefined) params.longpollid = request.longPollId;
    return parseBlockTemplate(await this.caller.call('getblocktemplate', [params], options), undefined, this.dialect);
  }

  /** null when the daemon accepted the block; otherwise its BIP22 reason (`high-hash`, `duplicate`, ...). */
  async submitBlock(blockHex: string, options?: RpcCallOptions): Promise<string | null> {
    const result = await this.caller.call('submitblock', [blockHex], options);
    if (result === null || result === undefined) return null;
    return new Shape('submitblock').string(result, 'result');
  }

  async getBlockchainInfo(options?: RpcCallOptions): Promise<BlockchainInfo> {
    const s = new Shape('getblockchaininfo');
    const r = s.object(await this.caller.call('getblockchaininfo', [], options), 'result');
    return {
      chain: s.string(r.chain, 'chain'),
      blocks: s.integer(r.blocks, 'blocks', 0),
      headers: s.integer(r.headers, 'headers', 0),
      bestBlockHash: s.hex(r.bestblockhash, 'bestblockhash', 32),
      initialBlockDownload: r.initialblockdownload === undefined ? false : s.boolean(r.initialblockdownload, 'ibd'),
    };
  }

  async getMiningInfo(options?: RpcCallOptions): Promise<MiningInfo> {
    const s = new Shape('getmininginfo');
    const r = s.object(await this.caller.call('getmininginfo', [], options), 'result');
    return {
      blocks: s.integer(r.blocks, 'blocks', 0),
      difficulty: s.number(r.difficulty, 'difficulty'),
      networkHashPs: r.networkhashps === undefined ? 0 : s.number(r.networkhashps, 'networkhashps'),
      chain: s.string(r.chain, 'chain'),
    };
  }

  async getBlockCount(options?: RpcCallOptions): Promise<number> {
    return new Shape('getblockcount').integer(await this.caller.call('getblockcount', [], options), 'result', 0);
  }

  async getBestBlockHash(options?: RpcCallOptions): Promise<string> {
    return new Shape('getbestblockhash').hex(await this.caller.call('getbestblockhash', [], options), 'result', 32);
  }

  async getBlockHash(height: number, options?: RpcCallOptions): Promise<string> {
    return new Shape('getblockhash').hex(await this.caller.call('getblockhash', [height], options), 'result', 32);
  }

  /**
   * getblockstats of the block at `height`. A node without the call (Dogecoin Core 1.14, based on
   * Bitcoin Core 0.14) answers with RPC error -32601, which the caller takes as "cannot report fees".
   */
  async getBlockStats(height: number, options?: RpcCallOptions): Promise<BlockStats> {
    const s = new Shape('getblockstats');
    const r = s.object(await this.caller.call('getblockstats', [height, BLOCK_STATS], options), 'result');
    const stats = {
      height: s.integer(r.height, 'height', 0),
      hash: s.hex(r.blockhash, 'blockhash', 32),
      time: s.integer(r.time, 'time', 0, 0xffffffff),
      subsidy: BigInt(s.integer(r.subsidy, 'subsidy', 0)),
      totalFee: BigInt(s.integer(r.totalfee, 'totalfee', 0)),
    };
    if (stats.height !== height) s.fail(`answered for height ${stats.height}, not ${height}`);
    return stats;
  }

  /** getblock; verbosity 0 is the raw hex, 1 and 2 are objects (left unchecked: for tests and tools). */
  async getBlock(hash: string, verbosity: 0 | 1 | 2 = 1, options?: RpcCallOptions): Promise<unknown> {
    return this.caller.call('getblock', [hash, verbosity], options);
  }

  async validateAddress(address: string, options?: RpcCallOptions): Promise<AddressValidation> {
    const s = new Shape('validateaddress');
    const r = s.object(await this.caller.call('validateaddress', [address], options), 'result');
    const out: AddressValidation = { isValid: s.boolean(r.isvalid, 'isvalid') };
    const a = s.optionalString(r.address, 'address');
    if (a !== undefined) out.address = a;
    const script = s.optionalHex(r.scriptPubKey, 'scriptPubKey');
    if (script !== undefined) out.scriptPubKey = script;
    return out;
  }

  /** getaddressinfo (wallet): the address's scriptPubKey and whether the wallet owns it. */
  async getAddressInfo(address: string, options?: RpcCallOptions): Promise<{ scriptPubKey: string; isMine: boolean }> {
    const s = new Shape('getaddressinfo');
    const r = s.object(await this.caller.call('getaddressinfo', [address], options), 'result');
    return { scriptPubKey: s.hex(r.scriptPubKey, 'scriptPubKey'), isMine: r.ismine === true };
  }
}
