import type { RpcCaller, RpcCallOptions } from '../rpc/client.js';
import { RpcError } from '../rpc/errors.js';
import { parseBlockTemplate, parseEconomicState, parseHeaderView } from './parse.js';
import type { CkbJsonBlock, CkbJsonBlockEconomicState, CkbJsonBlockTemplate, CkbJsonHeaderView } from './types.js';
import { CkbEncodingError, parseCkbHash, parseCkbSafeUint, toCkbUint } from './uint.js';

/** CKB RPC error codes (nervosnetwork/ckb rpc/README.md, "RPC Errors"). */
export const CKB_RPC_ERRORS = {
  /** CKBInternalError. */
  internal: -1,
  /** Invalid: submit_block's refusals ("Invalid: Header(Pow(InvalidNonce…))", "Invalid: Block(TransactionsRoot)"). */
  invalid: -3,
  /** RPCModuleIsDisabled: the module is not in rpc.modules, or (Miner) no [block_assembler] is configured. */
  moduleDisabled: -4,
  /** ConfigError. */
  config: -7,
} as const;

/**
 * The CKB node calls Lodestone makes (modules Miner and Chain), with replies checked field by field: a
 * reply of the wrong shape is an RpcError of kind `malformed` naming the field.
 */
export class CkbRpc {
  constructor(
    private readonly rpc: RpcCaller,
    private readonly name = 'ckb node',
  ) {}

  /** get_block_template(null, null, null): the node's current template. */
  async getBlockTemplate(options?: RpcCallOptions): Promise<CkbJsonBlockTemplate> {
    const result = await this.rpc.call('get_block_template', [null, null, null], options);
    return this.read('get_block_template', () => parseBlockTemplate(result, 'result'));
  }

  /** submit_block(work_id, block) → the block hash; a refusal is an RpcError (code −3 with the verifier's reason). */
  async submitBlock(workId: string, block: CkbJsonBlock, options?: RpcCallOptions): Promise<string> {
    const result = await this.rpc.call('submit_block', [workId, block], options);
    return this.read('submit_block', () => parseCkbHash(result, 'result'));
  }

  async getTipHeader(options?: RpcCallOptions): Promise<CkbJsonHeaderView> {
    const result = await this.rpc.call('get_tip_header', [], options);
    return this.read('get_tip_header', () => parseHeaderView(result, 'result'));
  }

  async getTipBlockNumber(options?: RpcCallOptions): Promise<number> {
    const result = await this.rpc.call('get_tip_block_number', [], options);
    return this.read('get_tip_block_number', () => parseCkbSafeUint(result, 'result'));
  }

  /** The canonical chain's header at `number`, or null above the tip. */
  async getHeaderByNumber(number: number, options?: RpcCallOptions): Promise<CkbJsonHeaderView | null> {
    const result = await this.rpc.call('get_header_by_number', [toCkbUint(number)], options);
    return this.read('get_header_by_number', () => (result === null ? null : parseHeaderView(result, 'result')));
  }

  /** The reward split of a canonical block, or null until it is finalized (11 blocks later) or off the chain. */
  async getBlockEconomicState(hash: string, options?: RpcCallOptions): Promise<CkbJsonBlockEconomicState | null> {
    const result = await this.rpc.call('get_block_economic_state', [hash], options);
    return this.read('get_block_economic_state', () => (result === null ? null : parseEconomicState(result, 'result')));
  }

  private read<T>(method: string, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      if (error instanceof CkbEncodingError) {
        throw new RpcError('malformed', error.message, { method, daemon: this.name, cause: error });
      }
      throw error;
    }
  }
}
