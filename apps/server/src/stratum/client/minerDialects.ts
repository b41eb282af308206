import type { AlgorithmKey } from '@lodestone/domain';
import { BitcoinMiner } from './bitcoinMiner.js';
import { CkbMiner } from './ckbMiner.js';
import { KadenaMiner } from './kadenaMiner.js';
import { KaspaMiner } from './kaspaMiner.js';
import type { MinerDialect } from './minerDialect.js';

/** A fresh miner-side dialect for one connection, per algorithm (one line per dialect). */
const MINER_DIALECTS: Partial<Record<AlgorithmKey, () => MinerDialect>> = {
  sha256: () => new BitcoinMiner('sha256'),
  scrypt: () => new BitcoinMiner('scrypt'),
  x11: () => new BitcoinMiner('x11'),
  eaglesong: () => new CkbMiner(),
  blake2s: () => new KadenaMiner(),
  // A GPU-style miner (legacy job, difficulties as vardiff sets them): the fleet asks d=N for its rate.
  kheavyhash: () => new KaspaMiner('goldshell'),
};

/**
 * The miner side of `algorithm`'s stratum dialect, new for each connection (it holds that
 * connection's nonce space and job); undefined while the algorithm has none.
 */
export function minerDialectFor(algorithm: AlgorithmKey): MinerDialect | undefined {
  return MINER_DIALECTS[algorithm]?.();
}
