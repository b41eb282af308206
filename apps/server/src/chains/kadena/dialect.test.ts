/**
 * Replayed Kadena miners against a real Session speaking the Kadena dialect, in the message orders and
 * forms of the real miners (chainweb-mining-client src/Worker/POW/Stratum/Protocol.hs and
 * scripts/stratum.expect): kdaminer subscribes `["kdaminer-v1.0.0", null]`; the iBeLink BM-K1
 * subscribes without the null and authorizes first; some firmware pads its hex. Shares are hashed for
 * real over real mainnet01 work headers.
 */
import { hashToBase64Url, kadenaBlockHash } from '@lodestone/chain';
import { describe, expect, it } from 'vitest';
import { ExtranonceAllocator } from '../../stratum/extranonce.js';
import { StratumError } from '../../stratum/protocol.js';
import { KADENA_NONCE2_SIZE, levelDifficulty, readIntHex, targetHex } from './dialect.js';
import { KadenaPool } from './testing.js';

const LOGIN = 'alice.k1';
const MAX = (1n << 256n) - 1n;
/** A target of chainweb's levels: 2^(256−L) − 1. */
const isLevel = (target: bigint) => target > 0n && ((target + 1n) & target) === 0n;
const targetsOf = (params: unknown[][]) => params.map(([hex]) => BigInt(`0x${hex as string}`));

describe('Kadena dialect: the message forms of real miners', () => {
  it('kdaminer: subscribe ["kdaminer-v1.0.0", null] then authorize; a level target before the first job', async () => {
    const pool = new KadenaPool();
    const job = pool.publish(0);
    const rig = pool.connect();
    const subscribed = await rig.subscribe('kdaminer-v1.0.0');
    expect(rig.miner.subscribeParams('kdaminer-v1.0.0')).toEqual(['kdaminer-v1.0.0', null]);
    expect(subscribed).toEqual({ id: 1, result: [null, '1234', KADENA_NONCE2_SIZE], error: null });
    expect(rig.sent('mining.notify')).toHaveLength(0);
    expect((await rig.call('mining.authorize', [LOGIN, 'x'])).result).toBe(true);

    // set_target (difficulty 16 = level 4 = 2^252 − 1), then the job: [id, 286-byte header, clean].
    const order = rig.received.filter((m) => m.method).map((m) => m.method);
    expect(order).toEqual(['mining.set_target', 'mining.notify']);
    expect(rig.sent('mining.set_target')).toEqual([[`0${'f'.repeat(63)}`]]);
    expect(rig.sent('mining.notify')).toEqual([['1', Buffer.from(job.header).toString('hex'), true]]);

    const { answer, nonce2 } = await rig.mine(LOGIN);
    expect(answer).toEqual({ id: 3, result: true, error: null });
    expect(nonce2).toMatch(/^[1-9a-f][0-9a-f]*$|^0$/);
    expect(pool.valid()).toEqual([{ account: 'alice', worker: 'k1', outcome: { kind: 'valid', difficulty: 16 } }]);
  });

  it('iBeLink BM-K1: authorize before subscribe, subscribe ["agent"] without null', async () => {
    const pool = new KadenaPool();
    pool.publish(0);
    const rig = pool.connect({ omitSubscribeNull: true });
    expect((await rig.call('mining.authorize', [LOGIN, 'x'])).result).toBe(true);
    expect(rig.sent('mining.notify')).toHaveLength(0);
    expect(rig.miner.subscribeParams('iBeLink BM-K1')).toEqual(['iBeLink BM-K1']);
    const subscribed = await rig.subscribe('iBeLink BM-K1');
    expect(subscribed.result).toEqual([null, '1234', 6]);
    expect(rig.sent('mining.set_target')).toHaveLength(1);
    expect(rig.sent('mining.notify')).toHaveLength(1);
    expect((await rig.mine(LOGIN)).answer.result).toBe(true);
    for (let i = 0; i < 5; i++) expect((await rig.mine(LOGIN)).answer.result).toBe(true);
    expect(pool.valid()).toHaveLength(6);
  });

  it('subscribe with no params at all is answered the same way', async () => {
    const pool = new KadenaPool();
    const rig = pool.connect();
    const answer = await rig.call('mining.subscribe', []);
    expect(answer.result).toEqual([null, '1234', 6]);
  });

  it('a miner that pads its hex: job id and nonce2 read as the integers they are', async () => {
    const pool = new KadenaPool();
    pool.publish(0);
    const rig = pool.connect({ padNonce2: true });
    await rig.subscribe('padding-miner/1.0');
    await rig.call('mining.authorize', [LOGIN, 'x']);
    const { share } = rig.miner.search(100_000);
    if (!share) throw new Error('no share');
    const padded = share.params[0] as string;
    expect(padded).toHaveLength(12);
    expect((await rig.submit(LOGIN, '0001', padded)).result).toBe(true);
    // The same nonce written without padding (or with 0x) is the same share.
    const unpadded = (readIntHex(padded) as bigint).toString(16);
    expect((await rig.submit(LOGIN, '1', unpadded)).error?.[0]).toBe(StratumError.Duplicate);
    expect((await rig.submit(LOGIN, '0x1', `0x${padded}`)).error?.[0]).toBe(StratumError.Duplicate);
    expect(pool.valid()).toHaveLength(1);
  });
});

describe('Kadena dialect: shares', () => {
  async function ready(pool = new KadenaPool()) {
    if (!pool.source.current()) pool.publish(0);
    const rig = pool.connect();
    await rig.subscribe('kdaminer-v1.0.0');
    await rig.call('mining.authorize', [LOGIN, 'x']);
    return { pool, rig };
  }

  it('a valid share is credited at the job difficulty; one above the target is low difficulty', async () => {
    const { pool, rig } = await ready();
    const { answer, hashValue } = await rig.mine(LOGIN);
    expect(answer.result).toBe(true);
    expect(hashValue <= MAX / 16n).toBe(true);
    const miss = await rig.mine(LOGIN, true);
    expect(miss.hashValue > MAX / 16n).toBe(true);
    expect(miss.answer.error).toEqual([StratumError.LowDifficulty, 'Low difficulty share', null]);
    expect(pool.shares.map((s) => s.outcome)).toEqual([
      { kind: 'valid', difficulty: 16 },
      { kind: 'invalid', reason: 'low-difficulty' },
    ]);
  });

  it('the same nonce twice is a duplicate; another job of the same header work is not', async () => {
    const { pool, rig } = await ready();
    const { nonce2 } = await rig.mine(LOGIN);
    expect((await rig.submit(LOGIN, '1', nonce2)).error?.[0]).toBe(StratumError.Duplicate);
    expect(pool.shares.at(-1)?.outcome).toEqual({ kind: 'invalid', reason: 'duplicate' });
  });

  it('re-issued work (same chain and parent, later creation time) keeps every earlier job valid', async () => {
    const { pool, rig } = await ready();
    const first = rig.miner.search(100_000).share;
    if (!first) throw new Error('no share');
    const reissued = pool.reissue();
    expect(reissued.parentKey).toBe(pool.source.current()?.parentKey);
    expect(rig.sent('mining.notify').map(([id, , clean]) => [id, clean])).toEqual([
      ['1', true],
      ['2', true],
    ]);
    // The share found on job 1 arrives after job 2 was sent: still valid.
    expect((await rig.submit(LOGIN, first.jobId, first.params[0])).result).toBe(true);
    // Job 2 is another header (creation time moved): the same nonce2 is a new share there.
    expect(rig.miner.jobId).toBe('2');
    const again = rig.miner.hashValue(readIntHex(first.params[0] as string) as bigint);
    expect(again).not.toBe(first.hashValue);
    expect((await rig.mine(LOGIN)).answer.result).toBe(true);
    expect(pool.valid()).toHaveLength(2);
  });

  it('a share of the previous parent (or chain) is stale once work on a new one was sent', async () => {
    const { pool, rig } = await ready();
    const old = rig.miner.search(100_000).share;
    if (!old) throw new Error('no share');
    // Real header 1 is the child of header 0 on chain 5: the chain moved on.
    const next = pool.publish(1);
    expect(next.parentKey).not.toBe(pool.jobs.get('1')?.job.parentKey);
    const answer = await rig.submit(LOGIN, old.jobId, old.params[0]);
    expect(answer.error).toEqual([StratumError.JobNotFound, 'Stale share (job of an older block)', null]);
    expect(pool.shares.at(-1)?.outcome).toEqual({ kind: 'stale', reason: 'stale' });
    // A job id never sent is not found.
    expect((await rig.submit(LOGIN, 'ff', '1')).error?.[0]).toBe(StratumError.JobNotFound);
    expect((await rig.mine(LOGIN)).answer.result).toBe(true);
  });

  it('foreign nonces: nonce2 must fit its 6 bytes, and sessions get different nonce1', async () => {
    const pool = new KadenaPool();
    pool.publish(0);
    const a = pool.connect();
    const b = pool.connect();
    await a.subscribe('kdaminer-v1.0.0');
    await b.subscribe('kdaminer-v1.0.0');
    await a.call('mining.authorize', [LOGIN, 'x']);
    await b.call('mining.authorize', ['bob.k1', 'x']);
    expect(a.miner.nonce1).toBe(0x1234n);
    expect(b.miner.nonce1).toBe(0x1235n);

    // A's share; the same nonce2 from B is B's own nonce (B's nonce1 in the low bytes): another hash,
    // judged on its own, never A's share counted twice.
    const { nonce2 } = await a.mine(LOGIN);
    const n2 = readIntHex(nonce2) as bigint;
    expect(b.miner.nonce(n2)).not.toBe(a.miner.nonce(n2));
    const own = b.miner.hashValue(n2);
    expect(own).not.toBe(a.miner.hashValue(n2));
    const replayed = await b.submit('bob.k1', '1', nonce2);
    if (own <= MAX / 16n) expect(replayed.result).toBe(true);
    else expect(replayed.error?.[0]).toBe(StratumError.LowDifficulty);
    // A nonce2 past 6 bytes would reach into nonce1 (firmware writing a whole 8-byte nonce): refused.
    const eightBytes = a.miner.nonce(n2 + (1n << 32n)).toString(16);
    expect(eightBytes.length).toBeGreaterThan(12);
    const stolen = await b.submit('bob.k1', '1', eightBytes);
    expect(stolen.error).toEqual([StratumError.Other, 'nonce2 must fit in 6 bytes (below 2^48)', null]);
    expect((await b.submit('bob.k1', '1', '1000000000000')).error?.[0]).toBe(StratumError.Other);
    expect((await b.submit('bob.k1', '1', 'ffffffffffff')).error?.[0]).not.toBe(StratumError.Other);
    expect(pool.shares.filter((s) => s.account === 'bob').map((s) => s.outcome)).toContainEqual({
      kind: 'invalid',
      reason: 'bad-nonce',
    });
    expect(pool.valid().filter((s) => s.account === 'alice')).toHaveLength(1);
  });

  it('a share at or below the header target is a block: the solved header goes to the source', async () => {
    const pool = new KadenaPool();
    const job = pool.publish(0, 1n << 250n);
    const { rig } = await ready(pool);
    let block: { nonce2: string; hashValue: bigint } | undefined;
    for (let i = 0; i < 200 && !block; i++) {
      const found = await rig.mine(LOGIN);
      expect(found.answer.result).toBe(true);
      if (found.hashValue <= job.networkTarget) block = found;
    }
    if (!block) throw new Error('no block in 200 shares');
    expect(pool.blocks).toHaveLength(1);
    const nonce = rig.miner.nonce(readIntHex(block.nonce2) as bigint);
    const solved = job.solved(nonce);
    expect(pool.blocks[0]?.hash).toBe(hashToBase64Url(kadenaBlockHash(solved)));
    expect(await pool.blocks[0]?.submit()).toEqual({ accepted: true, hash: pool.blocks[0]?.hash });
    const [submitted] = pool.source.submitted;
    expect(submitted?.job).toBe(job);
    expect(Buffer.from(submitted?.solution ?? []).equals(Buffer.from(solved))).toBe(true);
    expect(Buffer.from(solved).readBigUInt64LE(278)).toBe(nonce);
    expect(nonce & 0xffffn).toBe(0x1234n);
  });

  it('a block above a session difficulty higher than the network is still taken, credited at the network', async () => {
    const pool = new KadenaPool({
      algorithm: 'blake2s',
      kind: 'standard',
      port: 3333,
      minDifficulty: 1,
      maxDifficulty: 2 ** 60,
      startDifficulty: 2 ** 20,
    });
    const job = pool.publish(0, 1n << 252n);
    const { rig } = await ready(pool);
    // Hashes that meet the network target (1 in 16) but not the session's (1 in 2^20).
    let answered = 0;
    for (let nonce2 = 0n; answered < 3; nonce2++) {
      const value = rig.miner.hashValue(nonce2);
      if (value > job.networkTarget || value <= MAX >> 20n) continue;
      expect((await rig.submit(LOGIN, '1', nonce2.toString(16))).result).toBe(true);
      answered++;
    }
    expect(pool.valid().map((s) => s.outcome)).toEqual(Array(3).fill({ kind: 'valid', difficulty: 16 }));
    expect(pool.blocks).toHaveLength(3);
  });

  it('malformed submits are answered with an error and never credited', async () => {
    const { pool, rig } = await ready();
    const { share } = rig.miner.search(100_000);
    if (!share) throw new Error('no share');
    const nonce2 = share.params[0] as string;
    const bad: unknown[][] = [
      [LOGIN, '1'],
      [LOGIN, '1', nonce2, 'extra'],
      [LOGIN, '1', Number.parseInt(nonce2, 16)],
      [LOGIN, '1', 'xyz'],
      [LOGIN, '1', ''],
      [LOGIN, '1', null],
      [LOGIN, '1', 'f'.repeat(65)],
    ];
    for (const params of bad) {
      const answer = await rig.call('mining.submit', params);
      expect(answer.result).toBeNull();
      expect(answer.error?.[0]).toBe(StratumError.Other);
    }
    expect((await rig.call('mining.submit', [LOGIN, 1, nonce2])).error?.[0]).toBe(StratumError.Other);
    expect(pool.shares).toEqual([]);
    // The honest share still counts once.
    expect((await rig.submit(LOGIN, share.jobId, nonce2)).result).toBe(true);
    expect(pool.valid()).toHaveLength(1);
    expect(rig.closedBecause).toBeUndefined();
  });

  it('malformed subscribes are refused; a submit before subscribe is not credited', async () => {
    const pool = new KadenaPool();
    pool.publish(0);
    const rig = pool.connect();
    expect((await rig.call('mining.authorize', [LOGIN, 'x'])).result).toBe(true);
    expect((await rig.submit(LOGIN, '1', '0')).error?.[0]).toBe(StratumError.NotSubscribed);
    for (const params of [[5], [{ agent: 'x' }], ['agent', 7], ['a', null, 'h', 1, 'x']]) {
      expect((await rig.call('mining.subscribe', params)).error?.[0]).toBe(StratumError.Other);
    }
    expect(rig.sent('mining.notify')).toHaveLength(0);
    expect(pool.shares).toEqual([]);
    expect((await rig.call('mining.extranonce.subscribe', [])).result).toBe(false);
  });
});

describe('Kadena dialect: targets are chainweb levels', () => {
  it('a password difficulty and every vardiff change go out as 2^(256−L) − 1, before the next job', async () => {
    const pool = new KadenaPool();
    pool.publish(0);
    const rig = pool.connect();
    await rig.subscribe('kdaminer-v1.0.0');
    await rig.call('mining.authorize', [LOGIN, 'd=1000']);
    // d=1000 → level 10.
    expect(targetsOf(rig.sent('mining.set_target'))).toEqual([(1n << 246n) - 1n]);
    expect(rig.miner.difficulty).toBe(1024);

    // A fast miner: 20 shares a second of virtual time. Vardiff raises the difficulty; the change waits
    // for the next re-issued job (a re-sent job would be the same header) and comes just before it.
    for (let i = 0; i < 20; i++) {
      expect((await rig.mine(LOGIN)).answer.result).toBe(true);
      pool.clock.now += 50;
    }
    expect(rig.sent('mining.set_target')).toHaveLength(1);
    pool.reissue();
    const targets = targetsOf(rig.sent('mining.set_target'));
    expect(targets).toHaveLength(2);
    expect(targets.every(isLevel)).toBe(true);
    expect((targets[1] as bigint) < (targets[0] as bigint)).toBe(true);
    const kinds = rig.received.filter((m) => m.method).map((m) => m.method);
    expect(kinds.slice(-2)).toEqual(['mining.set_target', 'mining.notify']);
    // Shares of the first job are still checked at its own target.
    expect(pool.valid().every((s) => s.outcome.kind === 'valid' && s.outcome.difficulty === 1024)).toBe(true);
    const raised = await rig.mine(LOGIN);
    expect(raised.answer.result).toBe(true);
    const credited = pool.valid().at(-1)?.outcome;
    expect(credited?.kind === 'valid' && Math.log2(credited.difficulty) % 1 === 0 && credited.difficulty > 1024).toBe(
      true,
    );
  });

  it('levelDifficulty: the nearest power of two within the port bounds, never below 1', () => {
    expect(levelDifficulty(1000, 1, 2 ** 60)).toBe(1024);
    expect(levelDifficulty(1500, 1, 2 ** 60)).toBe(2048);
    expect(levelDifficulty(0.001, 1 / 64, 2 ** 60)).toBe(1);
    expect(levelDifficulty(2 ** 70, 1, 2 ** 60)).toBe(2 ** 60);
    expect(levelDifficulty(100, 300, 2 ** 60)).toBe(512);
    expect(levelDifficulty(2 ** 42, 2 ** 32, 2 ** 60)).toBe(2 ** 42);
    expect(targetHex((1n << 214n) - 1n)).toBe(`${'0'.repeat(10)}3${'f'.repeat(53)}`);
  });

  it('a 2-byte allocator hands out unique nonce1 values and wraps within 2^16; the default stays 4 bytes', () => {
    const two = new ExtranonceAllocator(0xfffe, 2);
    expect([two.allocate().hex, two.allocate().hex, two.allocate().hex]).toEqual(['fffe', 'ffff', '0000']);
    expect(new ExtranonceAllocator(7).allocate().hex).toBe('00000007');
    expect(() => new ExtranonceAllocator(0, 5)).toThrow(RangeError);
  });
});
