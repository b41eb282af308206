import { POW } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { createCkbJob } from '../ckb/job.js';
import { REAL_CKB_CHAIN, REAL_CKB_POW_BLOCK, type RealCkbBlock } from './ckbRealTemplates.js';

const powValue = (real: RealCkbBlock) => {
  const job = createCkbJob(real.template(), { id: '1', cleanJobs: true });
  return { job, value: POW.eaglesong.hashValue(POW.eaglesong.hash(job.powMessage(real.nonce16))) };
};

describe('templates rebuilt from real CKB blocks', () => {
  it.each(REAL_CKB_CHAIN.map((b) => [b.number, b] as const))(
    'Aggron block %i: a job from its template and its nonce make the real block',
    (_n, real) => {
      const job = createCkbJob(real.template(), { id: '1', cleanJobs: true });
      expect(job.parentHash).toBe(real.parentHash);
      // The job's own roots (transactions, proposals, uncles) and the real nonce make the real header.
      expect(job.blockHash(real.nonce16)).toBe(real.hash);
    },
  );

  it('the Aggron blocks follow one another; their nonces are not Eaglesong solutions', () => {
    for (let i = 1; i < REAL_CKB_CHAIN.length; i++) {
      expect(REAL_CKB_CHAIN[i]?.parentHash).toBe(REAL_CKB_CHAIN[i - 1]?.hash);
    }
    const { job, value } = powValue(REAL_CKB_CHAIN[0] as RealCkbBlock);
    expect(value > job.networkTarget).toBe(true);
  });

  it('mainnet block 76245: the real nonce is an Eaglesong solution of the job and makes the real block', () => {
    const { job, value } = powValue(REAL_CKB_POW_BLOCK);
    expect(job.compactTarget).toBe(0x1a9c7b1a);
    expect(value <= job.networkTarget).toBe(true);
    expect(job.blockHash(REAL_CKB_POW_BLOCK.nonce16)).toBe(
      '0xf355b7bbb50627aa26839b9f4d65e83648b80c0a65354d78a782744ee7b0d12d',
    );
    expect(job.block(REAL_CKB_POW_BLOCK.nonce16).header.nonce).toBe('0x91c4b4746ffb69fe000000809a170200');
    expect(job.template.uncles).toHaveLength(1);
  });
});
