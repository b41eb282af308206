import { decodeCkbAddress } from '../../addresses/ckb.js';
import type { CkbJsonScript } from '../../ckb/types.js';

/** The secp256k1-blake160-sighash-all lock's type hash, the same on mainnet and testnet (RFC 0024). */
export const SIGHASH_ALL_CODE_HASH = '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8';

export type CkbNetwork = 'ckb' | 'ckt';

/**
 * The lock a payout to `address` creates, or a TypeError saying why the pool will not pay it.
 *
 * Only the default secp256k1-blake160-sighash-all lock with 20-byte args is paid (what every wallet and
 * exchange deposit address shows by default). Other locks are refused, because a payout the pool cannot
 * make safely is worse than none:
 * - a lock whose code the pool cannot know is deployed on the chain (a mistyped code hash, another dev
 *   chain's script) makes an output nobody can ever spend: the miner's coins are burnt;
 * - longer args (multisig with a since, anyone-can-pay, omnilock) need more than 61 CKB of capacity, so
 *   the payout minimum would no longer hold, and some (a since lock) freeze the coins for a while;
 * - the node's `well_known_scripts_only` outputs validator, which broadcast uses, refuses them anyway.
 * A miner with another wallet pays to that wallet's sighash-all address.
 */
export function payoutLock(address: string, network: CkbNetwork): CkbJsonScript {
  const { network: addressNetwork, lock } = decodeCkbAddress(address);
  const expected = network === 'ckb' ? 'mainnet' : 'testnet';
  if (addressNetwork !== expected) {
    throw new TypeError(`${address}: a ${addressNetwork} address, this wallet pays on ${expected} (${network}1…)`);
  }
  if (lock.code_hash !== SIGHASH_ALL_CODE_HASH || lock.hash_type !== 'type') {
    throw new TypeError(
      `${address}: its lock is not secp256k1-blake160-sighash-all; the pool pays only that lock (use the wallet's default address)`,
    );
  }
  if (lock.args.length !== 42) {
    throw new TypeError(
      `${address}: a sighash-all lock takes 20 bytes of args, this one has ${(lock.args.length - 2) / 2}`,
    );
  }
  return lock;
}
