import { describe, expect, it } from 'vitest';
import { KaspaConfigError, KaspaJobSource, type ThrottleView, throttleDecision } from './kaspaJobSource.js';

const job: ThrottleView = {
  daaScore: 1000n,
  blueScore: 900n,
  parentKey: 'a,b',
  hashMerkleRoot: 'm1',
  bits: 0x1d00ffff,
  createdAt: 10_000,
};
const next = { ...job, daaScore: 1003n, blueScore: 903n, parentKey: 'c', hashMerkleRoot: 'm2' };

describe('Kaspa job throttle', () => {
  it('sends the first template, and any template when the job is invalid', () => {
    expect(throttleDecision(undefined, false, next, 0)).toBe('now');
    expect(throttleDecision(job, true, next, 10_001)).toBe('now');
  });

  it('holds a newer template inside the interval and sends one once the interval is up', () => {
    expect(throttleDecision(job, false, next, 10_100)).toBe('wait');
    expect(throttleDecision(job, false, next, 10_999)).toBe('wait');
    expect(throttleDecision(job, false, next, 11_000)).toBe('now');
  });

  it('sends at once when the DAA score jumped (the job is on an old parent set) or the chain reorganised', () => {
    expect(throttleDecision(job, false, { ...next, daaScore: 1019n }, 10_100)).toBe('wait');
    expect(throttleDecision(job, false, { ...next, daaScore: 1020n }, 10_100)).toBe('now');
    expect(throttleDecision(job, false, { ...next, daaScore: 980n }, 10_100)).toBe('now');
    expect(throttleDecision(job, false, { ...next, blueScore: 899n }, 10_100)).toBe('now');
  });

  it('ignores a template with the same parents, merkle root and bits', () => {
    expect(throttleDecision(job, false, { ...job }, 50_000)).toBe('same');
    expect(throttleDecision(job, false, { ...job, bits: 0x1d00fffe }, 10_100)).toBe('wait');
  });

  it('takes other limits', () => {
    const rules = { minIntervalMs: 200, staleDaaScore: 5n };
    expect(throttleDecision(job, false, next, 10_200, rules)).toBe('now');
    expect(throttleDecision(job, false, { ...next, daaScore: 1005n }, 10_001, rules)).toBe('now');
  });
});

describe('Kaspa job source configuration', () => {
  it('refuses a pay address that is not a Kaspa address or not of the expected network', () => {
    expect(() => new KaspaJobSource({ nodes: ['ws://127.0.0.1:1'], payAddress: 'kaspa:nope' })).toThrow(
      KaspaConfigError,
    );
    const mainnet = 'kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyqh70xmfj';
    expect(
      () => new KaspaJobSource({ nodes: ['ws://127.0.0.1:1'], payAddress: mainnet, prefixes: ['kaspatest'] }),
    ).toThrow(/not a kaspatest: address/);
    expect(() => new KaspaJobSource({ nodes: ['http://127.0.0.1:1'], payAddress: mainnet })).toThrow(/ws:\/\//);
  });
});
