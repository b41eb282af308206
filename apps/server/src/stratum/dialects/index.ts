import type {
  BitcoinJob,
  CkbJob,
  CkbJsonBlock,
  KadenaJob,
  KaspaBlockSubmission,
  KaspaJob,
  WorkJob,
} from '@lodestone/chain';
import type { AlgorithmKey } from '@lodestone/domain';
import type { JobManager } from '../jobManager.js';
import { BitcoinDialect } from './bitcoin.js';
import { CkbDialect } from './ckb.js';
import type { Dialect } from './dialect.js';
import { KadenaDialect } from './kadena.js';
import { KaspaDialect } from './kaspa.js';

export type { Dialect } from './dialect.js';

/**
 * The dialect a port of `algorithm` speaks, over the job manager of that algorithm's source. One
 * dialect per algorithm and process: it owns the nonce space its connections share.
 */
export function createDialect(algorithm: AlgorithmKey, jobs: JobManager<WorkJob, unknown>): Dialect {
  switch (algorithm) {
    case 'sha256':
    case 'scrypt':
    case 'x11':
      return new BitcoinDialect(algorithm, jobs as unknown as JobManager<BitcoinJob, string>) as unknown as Dialect;
    case 'eaglesong':
      return new CkbDialect(jobs as unknown as JobManager<CkbJob, CkbJsonBlock>) as unknown as Dialect;
    case 'blake2s':
      // The source is a KadenaJobSource: WorkSource<KadenaJob, Uint8Array>.
      return new KadenaDialect(jobs as unknown as JobManager<KadenaJob, Uint8Array>) as unknown as Dialect;
    case 'kheavyhash':
      return new KaspaDialect(jobs as unknown as JobManager<KaspaJob, KaspaBlockSubmission>) as unknown as Dialect;
    default:
      throw new Error(`stratum: no dialect for ${algorithm} yet`);
  }
}
