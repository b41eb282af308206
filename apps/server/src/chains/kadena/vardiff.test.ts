/**
 * A Kadena miner replayed for two virtual minutes against a real Session, hashing for real: the work is
 * re-issued every second (as KadenaJobSource does), the chain moves to a new parent every 30 s, and the
 * miner (kdaminer's reaction: every notify says clean, so it moves to each new header at once, nonce2
 * from 0) is answered at once. Vardiff must find the power-of-two level that gives a share about every
 * 10 s, and no honest share may be lost to the re-issues, the level targets or the difficulty changes
 * that wait for the next re-issue.
 */
import { describe, expect, it } from 'vitest';
import { KadenaPool, MAINNET_HEADERS } from './testing.js';

const LOGIN = 'alice.k1';
const HASHRATE = 4000;
const DURATION_MS = 120_000;

describe('a replayed Kadena miner through vardiff', () => {
  it('keeps every share, and settles within 2× of a share per 10 s on power-of-two levels', {
    timeout: 60_000,
  }, async () => {
    const pool = new KadenaPool();
    let header = 0;
    pool.publish(header);
    const rig = pool.connect();
    await rig.subscribe('kdaminer-v1.0.0');
    await rig.call('mining.authorize', [LOGIN, 'x']);
    const { clock } = pool;
    const start = clock.now;
    const end = start + DURATION_MS;
    let nextReissue = start + 1000;
    let nextBlock = start + 30_000;
    let nextTick = start + 5000;
    let hashes = 0;
    let difficultyPerHash = 0;
    let submitted = 0;
    let id = 100;
    const difficulties: [number, number][] = [];

    while (clock.now < end) {
      if (clock.now >= nextBlock) {
        nextBlock += 30_000;
        nextReissue = clock.now + 1000;
        pool.publish(++header % MAINNET_HEADERS.length);
      } else if (clock.now >= nextReissue) {
        nextReissue += 1000;
        pool.reissue();
      }
      if (clock.now >= nextTick) {
        nextTick += 5000;
        rig.session.tick(clock.now);
      }
      const difficulty = rig.miner.difficulty as number;
      if (difficulties.at(-1)?.[1] !== difficulty) difficulties.push([clock.now - start, difficulty]);
      const next = Math.min(nextReissue, nextBlock, nextTick, end);
      const budget = Math.max(1, Math.ceil(((next - clock.now) * HASHRATE) / 1000));
      const found = rig.miner.search(budget);
      hashes += found.hashes;
      difficultyPerHash += found.hashes * difficulty;
      clock.now += (found.hashes * 1000) / HASHRATE;
      if (found.share) {
        submitted++;
        rig.session.receive(
          JSON.stringify({
            id: ++id,
            method: 'mining.submit',
            params: [LOGIN, found.share.jobId, ...found.share.params],
          }),
        );
      }
    }
    const answers = rig.received.filter((m) => typeof m.id === 'number' && m.id > 100);
    expect(answers).toHaveLength(submitted);
    const accepted = answers.filter((m) => m.result === true).length;
    expect(submitted).toBeGreaterThan(15);
    expect(accepted / submitted).toBeGreaterThanOrEqual(0.99);

    // Every target was a level; the last within 2× of a share per 10 s.
    const targets = rig.sent('mining.set_target').map(([hex]) => BigInt(`0x${hex as string}`));
    expect(targets.length).toBeGreaterThan(1);
    for (const target of targets) expect(((target + 1n) & target) === 0n).toBe(true);
    const right = HASHRATE * 10;
    const last = difficulties.at(-1)?.[1] as number;
    expect(last / right).toBeGreaterThan(0.5);
    expect(last / right).toBeLessThan(2);

    // Credited work is the work done, within four standard deviations of the share lottery.
    const credited = pool.valid().reduce((sum, s) => sum + (s.outcome.kind === 'valid' ? s.outcome.difficulty : 0), 0);
    expect(Math.abs(credited - hashes)).toBeLessThan(4 * Math.sqrt(difficultyPerHash));
  });
});
