import { POW } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { CkbMiner } from './miner.js';

/**
 * The worked example of leifjacky/ckb-gominer-demo README.md ("mining.submit"): nonce1 00c904bd, nonce2
 * 000000000000000000114026 (ckb-gominer's counter 114026 in decimal digits), pow_hash d5a74f…8a66, and
 * Eaglesong of the 48 bytes = 000034965758f32a….
 */
const POW_HASH = 'd5a74fba920ad0d35ec5726f26327547cbc82180e356e5ccf6cf2e6bd75f8a66';
const PARENT = 'df4f27b8a8baae4672012c7a57b3abd684e516b5a2739cfec71d8d071e85fe12';
const README_NONCE2 = '000000000000000000114026';
const README_HASH = 0x000034965758f32a266558876abba7be3ea343086bf048c9fc3c854e77a2f360n;

function readmeMiner(target: bigint): CkbMiner {
  const miner = new CkbMiner();
  miner.subscribed([null, '00c904bd', 12]);
  miner.notification('mining.set_target', [target.toString(16).padStart(64, '0')]);
  miner.notification('mining.notify', ['1611', POW_HASH, 1, PARENT, true]);
  return miner;
}

describe('the ckbminer client', () => {
  it('reproduces the ckb-gominer README example: counter 114026 hashes to 000034965758f32a…', () => {
    expect(POW.eaglesong.hashValue(POW.eaglesong.hash(Buffer.from(`${POW_HASH}00c904bd${README_NONCE2}`, 'hex')))).toBe(
      README_HASH,
    );
    const miner = readmeMiner(README_HASH);
    expect(miner.ready).toBe(true);
    expect(miner.job).toEqual({ jobId: '1611', powHash: POW_HASH, height: 1, parentHash: PARENT, clean: true });
    const shares: string[] = [];
    let hashes = 0;
    while (hashes < 114_027) {
      const found = miner.search(114_027 - hashes);
      hashes += found.hashes;
      if (found.share) {
        expect(found.share.hashValue <= README_HASH).toBe(true);
        shares.push(found.share.params[0] as string);
      }
    }
    expect(shares.at(-1)).toBe(README_NONCE2);
  });

  it('sends the 2- or 4-parameter subscribe and refuses a nonce split that is not 16 bytes', () => {
    expect(new CkbMiner().subscribeParams('ckbminer-v1.0.0')).toEqual(['ckbminer-v1.0.0', null]);
    expect(
      new CkbMiner({ fourParams: { host: 'ckb.uupool.cn', port: 10861 } }).subscribeParams('ckbminer-v1.0.0'),
    ).toEqual(['ckbminer-v1.0.0', null, 'ckb.uupool.cn', '10861']);
    expect(() => new CkbMiner().subscribed([null, '00c904bd', 8])).toThrow(/not 16 bytes/);
    expect(() => new CkbMiner().subscribed([null, 'xyz', 12])).toThrow(/not hex/);
    expect(() => new CkbMiner().subscribed(true)).toThrow();
  });

  it('restarts its counter on each job and finds misses on request', () => {
    const miner = readmeMiner(POW.eaglesong.targetForDifficulty(16));
    expect(miner.difficulty).toBeCloseTo(16, 10);
    const first = miner.search(10_000).share;
    miner.notification('mining.notify', ['1612', POW_HASH, 1, PARENT, false]);
    expect(miner.search(10_000).share).toEqual({ ...first, jobId: '1612' });
    const miss = miner.search(10_000, true).share;
    expect(miss && miss.hashValue > POW.eaglesong.targetForDifficulty(16)).toBe(true);
  });
});
