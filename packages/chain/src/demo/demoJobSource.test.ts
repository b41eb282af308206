import { createHash, scryptSync } from 'node:crypto';
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressToScript } from '../bitcoin/address.js';
import { parseBlock } from '../bitcoin/block.js';
import { bytesToBigIntLE } from '../bitcoin/bytes.js';
import { NETWORKS } from '../bitcoin/networks.js';
import type { BitcoinJob } from '../job.js';
import { targetFromBits } from '../pow.js';
import {
  DEMO_REFERENCE_DIFFICULTY,
  DemoJobSource,
  type DemoJobSourceOptions,
  demoPayoutAddress,
  demoTarget,
  targetForNetworkDifficulty,
} from './demoJobSource.js';

const sha256d = (b: Uint8Array) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
const scrypt = (b: Uint8Array) => scryptSync(b, b, 32, { N: 1024, r: 1, p: 1 });
const x11 = (b: Uint8Array) => Buffer.from(POW.x11.hash(b));
const en1 = Buffer.from('00000001', 'hex');

/** Hashes nonces like a miner would until the header meets (or, with `miss`, misses) the network target. */
function mine(job: BitcoinJob, hash: (header: Uint8Array) => Buffer, miss = false) {
  const en2 = Buffer.from('00000000', 'hex');
  for (let nonce = 0; nonce < 100_000; nonce++) {
    const header = job.header(en1, en2, job.curtime, nonce, job.version);
    if (bytesToBigIntLE(hash(header)) <= job.networkTarget !== miss) {
      return { header, block: job.block(en1, en2, job.curtime, nonce, job.version) };
    }
  }
  throw new Error('no nonce found');
}

const sources: DemoJobSource[] = [];
function demo(options: DemoJobSourceOptions) {
  const source = new DemoJobSource(options);
  sources.push(source);
  const jobs: BitcoinJob[] = [];
  source.onJob((job) => jobs.push(job));
  return { source, jobs };
}

afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.stop()));
  vi.useRealTimers();
});

describe('DemoJobSource', () => {
  it.each([
    ['sha256', sha256d, 'BTC'],
    ['scrypt', scrypt, 'LTC'],
    ['x11', x11, 'DASH'],
  ] as const)('%s: accepts a real block and advances the chain', async (algorithm, hash, coin) => {
    const { source, jobs } = demo({ algorithm, expectedHashesPerBlock: 64n });
    expect(source.demo).toBe(true);
    await source.start();
    const job = source.current();
    expect(job).toMatchObject({ algorithm, coin, height: 1, cleanJobs: true, extranonceSize: 8 });
    if (!job) throw new Error('no job');

    const { header, block } = mine(job, hash);
    const result = await source.submitBlock(job, block);
    // Blocks are named by sha256d of the header, except Dash's, named by their X11 hash.
    const id = algorithm === 'x11' ? x11(header) : sha256d(header);
    expect(result).toEqual({ accepted: true, hash: Buffer.from(id).reverse().toString('hex') });
    expect(source.blocksAccepted).toBe(1);

    // The next job builds on the block just found.
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ height: 2, cleanJobs: true });
    expect((jobs[1] as { previousBlockHash?: string }).previousBlockHash).toBe(result.hash);

    // The demo coinbase pays the demo address.
    const coinbase = parseBlock(Buffer.from(block, 'hex')).transactions[0];
    const payout = demoPayoutAddress(algorithm);
    expect(coinbase?.outputs[0]?.script).toEqual(addressToScript(payout.address, payout.network));
  });

  it('refuses blocks that miss the target, build on an old tip, or do not parse', async () => {
    const { source } = demo({ algorithm: 'sha256', expectedHashesPerBlock: 1n << 12n });
    await source.start();
    const job = source.current();
    if (!job) throw new Error('no job');
    const weak = mine(job, sha256d, true);
    expect(await source.submitBlock(job, weak.block)).toMatchObject({ accepted: false, reason: 'high-hash' });

    const good = mine(job, sha256d);
    expect(await source.submitBlock(job, good.block)).toMatchObject({ accepted: true });
    // The same block again builds on what is now the previous tip.
    expect(await source.submitBlock(job, good.block)).toMatchObject({ accepted: false, reason: 'stale-prevblk' });
    expect(await source.submitBlock(job, 'deadbeef')).toMatchObject({ accepted: false, reason: /^bad-blk/ });
  });

  it('sets the network target from the expected hashes per block', () => {
    const { target, bits } = demoTarget(1n << 22n);
    // 2^234 - 1 rounds down to the compact 0x1e03ffff: 0x03ffff × 256^27.
    expect(bits).toBe(0x1e03ffff);
    expect(target).toBe((1n << 234n) - (1n << 216n));
    const { source } = demo({ algorithm: 'scrypt' });
    expect(source.networkTarget).toBe(target);
  });

  it('refreshes jobs and lets the rest of the demo network find blocks', async () => {
    vi.useFakeTimers();
    const { source, jobs } = demo({ algorithm: 'scrypt', refreshIntervalMs: 30_000, blockIntervalMs: 600_000 });
    await source.start();
    vi.advanceTimersByTime(30_000);
    expect(jobs.map((j) => [j.height, j.cleanJobs])).toEqual([
      [1, true],
      [1, false],
    ]);
    vi.advanceTimersByTime(570_000);
    expect(jobs.at(-1)).toMatchObject({ height: 2, cleanJobs: true });
    expect(jobs.at(-1)?.prevHashNotify).not.toBe(jobs[0]?.prevHashNotify);
    await source.stop();
    vi.advanceTimersByTime(3_600_000);
    expect(jobs.at(-1)?.height).toBe(2);
  });

  it('pays a configured address', async () => {
    const address = 'QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj';
    const { source } = demo({ algorithm: 'scrypt', payoutAddress: address, network: NETWORKS['litecoin-regtest'] });
    await source.start();
    const job = source.current();
    if (!job) throw new Error('no job');
    const block = parseBlock(Buffer.from(job.block(en1, Buffer.alloc(4), job.curtime, 0, job.version), 'hex'));
    expect(block.transactions[0]?.outputs[0]?.script.toString('hex')).toBe(
      'a914d71bee7a1395c10c9ca9a7f53ac086b53e74369d87',
    );
  });

  it.each(['sha256', 'scrypt', 'x11'] as const)(
    '%s: values shares at the reference coin’s difficulty while blocks stay at the easy target',
    async (algorithm) => {
      const { source } = demo({ algorithm, expectedHashesPerBlock: 64n });
      await source.start();
      const job = source.current();
      if (!job) throw new Error('no job');
      expect(job.networkTarget).toBe(demoTarget(64n).target);
      // target = 0xffff × 2^208 ÷ difficulty: about difficulty × 2^32 hashes per block.
      expect(job.valuationTarget).toBe(targetForNetworkDifficulty(DEMO_REFERENCE_DIFFICULTY[algorithm]));
      const hashesPerBlock = Number((1n << 256n) / job.valuationTarget);
      expect(hashesPerBlock / (Number(DEMO_REFERENCE_DIFFICULTY[algorithm]) * 2 ** 32)).toBeCloseTo(1, 3);
    },
  );

  it('values shares at its own easy target with valuation "chain"', async () => {
    const { source } = demo({ algorithm: 'sha256', expectedHashesPerBlock: 64n, valuation: 'chain' });
    await source.start();
    expect(source.current()?.valuationTarget).toBe(source.networkTarget);
  });

  // 24 blocks of real proof of work up to 500 times the start target: about 3 s alone, past the default 5 s
  // on a loaded 2-core machine (CI, 2026-11-30).
  it('retargets: a miner with 500 times the fleet’s hashrate gets a few quick blocks, then one per interval', {
    timeout: 30_000,
  }, async () => {
    // The miner's clock moves by the mean time its hashrate needs for each block's target; the blocks
    // themselves carry real proof of work at that target.
    let nowMs = 1_700_000_000_000;
    const startHashes = 16n;
    const fleetRate = Number(startHashes) / 600; // hashes a second: a block per 600 s at the start
    const minerRate = 500 * fleetRate;
    const { source, jobs } = demo({ algorithm: 'sha256', expectedHashesPerBlock: startHashes, now: () => nowMs });
    await source.start();
    const found: number[] = [];
    for (let block = 0; block < 24; block++) {
      const job = jobs.at(-1) as BitcoinJob;
      const hashes = Number((1n << 256n) / job.networkTarget);
      nowMs += (hashes / minerRate) * 1000;
      found.push(nowMs);
      expect(await source.submitBlock(job, mine(job, sha256d).block)).toMatchObject({ accepted: true });
    }
    const start = 1_700_000_000_000;
    const inFirstMinute = found.filter((at) => at - start <= 60_000).length;
    // Without retargeting: 500 blocks a minute (every 0.12 s). With it: a handful, then the interval.
    expect(inFirstMinute).toBeGreaterThanOrEqual(3);
    expect(inFirstMinute).toBeLessThanOrEqual(8);
    const last = (found.at(-1) as number) - (found.at(-2) as number);
    expect(last / 1000).toBeGreaterThan(300);
    expect(last / 1000).toBeLessThan(1200);
    // Each early block hardened the target: the last is about 500 times the first.
    const ratio = Number(
      targetFromBits(Number.parseInt(jobs[0]?.bits ?? '', 16)) / (jobs.at(-1) as BitcoinJob).networkTarget,
    );
    expect(ratio).toBeGreaterThan(250);
    expect(ratio).toBeLessThan(1000);
  });

  it('eases back to the start target block by block while only the rest of the network mines', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const { source, jobs } = demo({ algorithm: 'sha256', expectedHashesPerBlock: 16n });
    await source.start();
    const start = source.networkTarget;
    for (let i = 0; i < 4; i++) {
      const job = jobs.at(-1) as BitcoinJob;
      await source.submitBlock(job, mine(job, sha256d).block);
    }
    // Four blocks at no time: four half-lives early, a sixteenth of the target (within compact rounding).
    expect(Number((start * 1000n) / source.networkTarget) / 1000).toBeCloseTo(16, 1);
    // The rest of the network finds a block 1200 s after the last: one interval late, twice the target.
    vi.advanceTimersByTime(1_200_000);
    expect(Number((start * 1000n) / source.networkTarget) / 1000).toBeCloseTo(8, 1);
    vi.advanceTimersByTime(3 * 1_200_000);
    expect(source.networkTarget).toBe(start);
    vi.advanceTimersByTime(1_200_000);
    expect(source.networkTarget).toBe(start);
    expect(jobs.at(-1)?.networkTarget).toBe(start);
  });

  it('refuses a network difficulty below 1', () => {
    expect(() => targetForNetworkDifficulty(0n)).toThrow(RangeError);
    expect(targetForNetworkDifficulty(1n)).toBe(0xffffn << 208n);
  });
});
