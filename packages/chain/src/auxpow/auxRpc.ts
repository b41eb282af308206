/**
 * The aux daemon calls of merged mining, as Dogecoin Core answers them (src/rpc/mining.cpp,
 * createauxblock / submitauxblock / getauxblock; Bellscoin's daemon keeps the same calls): typed and
 * checked, so that a daemon's odd answer is a named error and never a job with a wrong commitment.
 */
import { targetFromBits } from '@lodestone/pow';
import { bytesToBigIntLE } from '../bitcoin/bytes.js';
import { parseBits } from '../bitcoin/header.js';
import type { RpcCaller, RpcCallOptions } from '../rpc/client.js';
import { RPC_METHOD_NOT_FOUND, RpcError } from '../rpc/errors.js';
import { Shape } from '../rpc/shape.js';

/** One aux block to mine, as the aux daemon gave it. */
export interface AuxBlock {
  /** The aux block's hash, RPC hex: what the aux tree commits to (byte-reversed) and submitauxblock names. */
  hash: string;
  chainId: number;
  previousBlockHash: string;
  height: number;
  /** What the aux block pays its coinbase address, in the aux coin's smallest unit. */
  coinbaseValue: bigint;
  /** Compact target, hex. */
  bits: string;
  /** The aux chain's target: a parent header whose scrypt hash reads ≤ this solves the aux block. */
  target: bigint;
}

/** The three aux calls; `createauxblock` falls back to `getauxblock` on daemons older than it. */
export class AuxRpc {
  /** Set once the daemon answers that it has no createauxblock (getauxblock pays its own wallet). */
  private legacy = false;

  constructor(private readonly caller: RpcCaller) {}

  /** A block paying `address`: createauxblock, or getauxblock on a daemon that lacks it. */
  async createAuxBlock(address: string, options?: RpcCallOptions): Promise<AuxBlock> {
    if (!this.legacy) {
      try {
        return parseAuxBlock('createauxblock', await this.caller.call('createauxblock', [address], options));
      } catch (error) {
        if (!(error instanceof RpcError && error.kind === 'rpc' && error.rpcCode === RPC_METHOD_NOT_FOUND)) throw error;
        this.legacy = true;
      }
    }
    return parseAuxBlock('getauxblock', await this.caller.call('getauxblock', [], options));
  }

  /** True when the daemon took the block; false when its checks refused the proof. */
  async submitAuxBlock(hash: string, auxpowHex: string, options?: RpcCallOptions): Promise<boolean> {
    const method = this.legacy ? 'getauxblock' : 'submitauxblock';
    const result = await this.caller.call(method, [hash, auxpowHex], options);
    return new Shape(method).boolean(result, 'result');
  }
}

/**
 * Reads createauxblock's (or getauxblock's) answer. The target is taken from `bits`; `_target` (the
 * same number as little-endian hex, Dogecoin's uint256 bytes) or the older `target` must agree when
 * present, so a daemon that answers for another chain or block is caught here.
 */
export function parseAuxBlock(method: string, result: unknown): AuxBlock {
  const s = new Shape(method);
  const r = s.object(result, 'result');
  const bits = s.hex(r.bits, 'bits', 4);
  const target = targetFromBits(parseBits(bits));
  const stated = s.optionalHex(r._target ?? r.target, '_target', 32);
  if (stated !== undefined && bytesToBigIntLE(Buffer.from(stated, 'hex')) !== target) {
    s.fail(`_target ${stated} is not the target of bits ${bits}`);
  }
  const coinbaseValue = s.integer(r.coinbasevalue, 'coinbasevalue', 0);
  return {
    hash: s.hex(r.hash, 'hash', 32),
    chainId: s.integer(r.chainid, 'chainid', 0, 0xffff),
    previousBlockHash: s.hex(r.previousblockhash, 'previousblockhash', 32),
    height: s.integer(r.height, 'height', 0),
    coinbaseValue: BigInt(coinbaseValue),
    bits,
    target,
  };
}
