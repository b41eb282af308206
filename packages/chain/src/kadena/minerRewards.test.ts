import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainCountAt, kadenaBlockReward, MINER_REWARDS } from './minerRewards.js';
import { MINER_REWARDS_CSV } from './minerRewardsCsv.js';

describe('Kadena miner rewards', () => {
  it('the table is chainweb-node rewards/miner_rewards.csv byte for byte (the SHA-512 MinerReward.hs expects)', () => {
    expect(createHash('sha512').update(MINER_REWARDS_CSV).digest('hex')).toBe(
      '903d10b06666c0d619c8a28c74c3bb0af47209002f005b12bbda7b7df1131b2072ce758c1a8148facb1506022215ea201629f38863feb285c7e66f5965498fe0',
    );
    expect(MINER_REWARDS).toHaveLength(1436);
    expect(MINER_REWARDS[0]).toEqual([87_600n, 23_045_230_000_000n]);
  });

  it('a block gets the first row at or above its height, divided among the chains, in Stu (10^-12 KDA)', () => {
    // 876000,22.45395 over the 10 chains of mainnet before height 852 054, over 20 from there.
    expect(kadenaBlockReward('mainnet01', 800_000)).toBe(2_245_395_000_000n);
    expect(chainCountAt('mainnet01', 852_053n)).toBe(10);
    expect(kadenaBlockReward('mainnet01', 852_054)).toBe(1_122_697_500_000n);
    expect(kadenaBlockReward('mainnet01', 876_000)).toBe(1_122_697_500_000n);
    expect(kadenaBlockReward('mainnet01', 876_001)).toBe(1_119_458_500_000n);
    // 2190000,21.50195 — the height of the real headers the stand-in starts from.
    expect(kadenaBlockReward('mainnet01', 2_111_410)).toBe(1_075_097_500_000n);
    // 350400,22.84644 over testnet04's 10 chains before height 332 604.
    expect(kadenaBlockReward('testnet04', 332_603)).toBe(2_284_644_000_000n);
    expect(kadenaBlockReward('development', 0)).toBe(1_152_261_500_000n);
  });

  it('the last row, and nothing after the table', () => {
    expect(kadenaBlockReward('mainnet01', 125_538_056)).toBe(1_199_966_650n);
    expect(kadenaBlockReward('mainnet01', 125_538_057)).toBe(0n);
    expect(kadenaBlockReward('mainnet01', 200_000_000)).toBe(0n);
    expect(() => kadenaBlockReward('mainnet01', -1)).toThrow(RangeError);
  });
});
