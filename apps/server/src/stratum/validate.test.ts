import { randomBytes } from 'node:crypto';
import type { BitcoinJob } from '@lodestone/chain';
import { POW } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { grind, hex32 } from './client/work.js';
import { fixtureJob } from './testing/fixtureJobs.js';
import {
  type BitcoinSubmit,
  type IssuedWork,
  type ShareContext,
  shareCredit,
  shareKey,
  validateShare,
} from './validate.js';

const pow = POW.sha256;
const NOW = 1_700_000_000_000;
const CURTIME = NOW / 1000;
const en1 = Buffer.from('0a0b0c0d', 'hex');
const SHARE_TARGET = 1n << 252n; // one hash in 16 meets it

function job(networkTarget = 1n << 200n): BitcoinJob {
  return fixtureJob({
    algorithm: 'sha256',
    id: '1',
    height: 100,
    prevHash: randomBytes(32),
    networkTarget,
    cleanJobs: true,
    curtime: CURTIME,
  });
}

function issued(j: BitcoinJob, overrides: Partial<IssuedWork> = {}): IssuedWork {
  return {
    entry: { job: j, stale: false, evicted: false, seen: new Set() },
    difficulty: 0.5,
    target: SHARE_TARGET,
    ...overrides,
  };
}

function context(work: IssuedWork | undefined, overrides: Partial<ShareContext> = {}): ShareContext {
  return {
    issued: work,
    unknownJob: 'job-not-found',
    extranonce1: en1,
    extranonce1Hex: en1.toString('hex'),
    versionMask: 0x1fffe000,
    now: NOW,
    pow,
    ...overrides,
  };
}

/** A nonce whose hash meets (or, with `miss`, does not meet) the target. */
function findNonce(j: BitcoinJob, en2: string, version: number, target: bigint, miss = false): number {
  const header = Buffer.from(j.header(en1, Buffer.from(en2, 'hex'), CURTIME, 0, version));
  if (!miss) {
    const found = grind(header, pow, target, 0, 10_000);
    if (found.nonce === undefined) throw new Error('no share found');
    return found.nonce;
  }
  for (let nonce = 0; ; nonce++) {
    header.writeUInt32LE(nonce, 76);
    if (pow.hashValue(pow.hash(header)) > target) return nonce;
  }
}

function submit(overrides: Partial<BitcoinSubmit> = {}): BitcoinSubmit {
  return {
    extranonce2: '00000001',
    ntime: hex32(CURTIME),
    nonce: '00000000',
    versionBits: undefined,
    ...overrides,
  };
}

describe('validateShare', () => {
  const j = job();
  const goodNonce = findNonce(j, '00000001', j.version, SHARE_TARGET);

  it('accepts a share whose hash meets the share target and credits the issued difficulty', () => {
    const verdict = validateShare(context(issued(j)), submit({ nonce: hex32(goodNonce) }));
    expect(verdict).toMatchObject({ accepted: true, difficulty: 0.5, isBlock: false });
    if (!verdict.accepted) throw new Error('refused');
    expect(verdict.share.version).toBe(j.version);
    expect(Buffer.from(verdict.share.header)).toEqual(
      Buffer.from(j.header(en1, Buffer.from('00000001', 'hex'), CURTIME, goodNonce, j.version)),
    );
    expect(pow.hashValue(verdict.share.hash) <= SHARE_TARGET).toBe(true);
  });

  it('refuses a hash above the share target as low difficulty, returning the duplicate key', () => {
    const nonce = findNonce(j, '00000001', j.version, SHARE_TARGET, true);
    const verdict = validateShare(context(issued(j)), submit({ nonce: hex32(nonce) }));
    expect(verdict).toMatchObject({ accepted: false, reason: 'low-difficulty', code: 23 });
    expect(verdict.key).toBeTypeOf('number');
  });

  it('refuses unknown, forgotten and stale jobs first', () => {
    expect(validateShare(context(undefined), submit())).toMatchObject({ reason: 'job-not-found', code: 21 });
    expect(validateShare(context(undefined, { unknownJob: 'stale' }), submit())).toMatchObject({
      reason: 'stale',
      code: 21,
    });
    const stale = issued(j, { entry: { job: j, stale: true, evicted: false, seen: new Set() } });
    // Stale wins over every later check, even a malformed nonce.
    expect(validateShare(context(stale), submit({ nonce: 'zz' }))).toMatchObject({ reason: 'stale', code: 21 });
    // A job of the current block let go for memory is not "stale": no block changed.
    const evicted = issued(j, { entry: { job: j, stale: false, evicted: true, seen: new Set() } });
    expect(validateShare(context(evicted), submit())).toMatchObject({ reason: 'job-not-found', code: 21 });
  });

  it('checks nonce and ntime format and the ntime window', () => {
    const ok = { nonce: hex32(goodNonce) };
    expect(validateShare(context(issued(j)), submit({ ...ok, ntime: '123' }))).toMatchObject({ reason: 'bad-nonce' });
    expect(validateShare(context(issued(j)), submit({ nonce: 'xyz12345' }))).toMatchObject({ reason: 'bad-nonce' });
    const tooOld = hex32(CURTIME - 601);
    const tooNew = hex32(CURTIME + 7201);
    expect(validateShare(context(issued(j)), submit({ ...ok, ntime: tooOld }))).toMatchObject({
      reason: 'ntime-out-of-range',
      code: 20,
    });
    expect(validateShare(context(issued(j)), submit({ ...ok, ntime: tooNew }))).toMatchObject({
      reason: 'ntime-out-of-range',
    });
    // Rolled forward within the window: checked further (here it fails on the hash, not the time).
    const rolled = validateShare(context(issued(j)), submit({ ...ok, ntime: hex32(CURTIME + 60) }));
    expect(rolled.accepted || rolled.reason === 'low-difficulty').toBe(true);
  });

  it('allows version bits only inside the negotiated mask and merges them into the version', () => {
    const ok = { nonce: hex32(goodNonce) };
    expect(validateShare(context(issued(j)), submit({ ...ok, versionBits: '20000000' }))).toMatchObject({
      reason: 'bad-version-bits',
      code: 20,
    });
    expect(
      validateShare(context(issued(j), { versionMask: 0 }), submit({ ...ok, versionBits: '00002000' })),
    ).toMatchObject({
      reason: 'bad-version-bits',
    });
    expect(validateShare(context(issued(j)), submit({ ...ok, versionBits: 'nothex!!' }))).toMatchObject({
      reason: 'bad-version-bits',
    });
    const version = (j.version | 0x00006000) >>> 0;
    const nonce = findNonce(j, '00000001', version, SHARE_TARGET);
    const verdict = validateShare(context(issued(j)), submit({ nonce: hex32(nonce), versionBits: '00006000' }));
    expect(verdict).toMatchObject({ accepted: true, share: { version } });
  });

  it('requires extranonce2 of exactly the announced size in hex', () => {
    const ok = { nonce: hex32(goodNonce) };
    for (const extranonce2 of ['000001', '0000000001', '0000000g', '']) {
      expect(validateShare(context(issued(j)), submit({ ...ok, extranonce2 }))).toMatchObject({
        reason: 'bad-extranonce2',
      });
    }
  });

  it('refuses a share already seen for the job', () => {
    const first = validateShare(context(issued(j)), submit({ nonce: hex32(goodNonce) }));
    if (!first.accepted) throw new Error('refused');
    const seen = new Set([first.key]);
    const again = validateShare(
      context(issued(j, { entry: { job: j, stale: false, evicted: false, seen } })),
      submit({ nonce: hex32(goodNonce).toUpperCase() }),
    );
    expect(again).toMatchObject({ accepted: false, reason: 'duplicate', code: 22 });
    // Another extranonce1 (another session) is other work.
    const other = validateShare(
      context(issued(j, { entry: { job: j, stale: false, evicted: false, seen } }), {
        extranonce1: Buffer.from('01020304', 'hex'),
        extranonce1Hex: '01020304',
      }),
      submit({ nonce: hex32(goodNonce) }),
    );
    expect(other.accepted === false && other.reason === 'duplicate').toBe(false);
  });

  it('flags a block when the hash meets the network target, even above the share difficulty', () => {
    const easy = job((1n << 256n) - 1n);
    const verdict = validateShare(context(issued(easy)), submit({ nonce: '00000000' }));
    expect(verdict).toMatchObject({ accepted: true });
    const nonce = findNonce(easy, '00000001', easy.version, SHARE_TARGET);
    expect(validateShare(context(issued(easy)), submit({ nonce: hex32(nonce) }))).toMatchObject({
      accepted: true,
      isBlock: true,
      difficulty: 0.5,
    });
    // Share target 1 (nothing meets it), network target easier: still a block, credited at the network difficulty.
    const hard = validateShare(
      context(issued(easy, { target: 1n, difficulty: 1e12 })),
      submit({ nonce: hex32(nonce) }),
    );
    expect(hard).toMatchObject({
      accepted: true,
      isBlock: true,
      difficulty: pow.difficultyForTarget((1n << 256n) - 1n),
    });
  });
});

describe('shareKey', () => {
  it('differs when any part of the share differs, and ignores hex case', () => {
    const base = shareKey('0a0b0c0d', '00000001', 100, 7, 0x20000000);
    expect(shareKey('0A0B0C0D', '00000001', 100, 7, 0x20000000)).toBe(base);
    for (const other of [
      shareKey('0a0b0c0e', '00000001', 100, 7, 0x20000000),
      shareKey('0a0b0c0d', '00000002', 100, 7, 0x20000000),
      shareKey('0a0b0c0d', '0000000001', 100, 7, 0x20000000),
      shareKey('0a0b0c0d', '00000001', 101, 7, 0x20000000),
      shareKey('0a0b0c0d', '00000001', 100, 8, 0x20000000),
      shareKey('0a0b0c0d', '00000001', 100, 7, 0x20002000),
    ]) {
      expect(other).not.toBe(base);
    }
    expect(Number.isSafeInteger(base)).toBe(true);
  });

  it('does not collide over 200,000 nonces', () => {
    const keys = new Set<number>();
    for (let nonce = 0; nonce < 200_000; nonce++) keys.add(shareKey('0a0b0c0d', '00000001', 100, nonce, 0x20000000));
    expect(keys.size).toBe(200_000);
  });
});

describe('shareCredit (every dialect)', () => {
  const issued = { difficulty: pow.difficultyForTarget(1000n), target: 1000n };
  it('credits the job’s difficulty at or under the share target, and says when it is a block', () => {
    expect(shareCredit(1000n, issued, 10n, pow)).toEqual({
      difficulty: issued.difficulty,
      isBlock: false,
      value: 1000n,
    });
    expect(shareCredit(10n, issued, 10n, pow)).toEqual({ difficulty: issued.difficulty, isBlock: true, value: 10n });
  });
  it('refuses a hash above the share target unless it is a block, then credits the network’s difficulty', () => {
    expect(shareCredit(1001n, issued, 10n, pow)).toBeUndefined();
    // Network target above the share target (the demo network): the block is credited at the network's.
    const easyNetwork = 2000n;
    const credited = shareCredit(1500n, issued, easyNetwork, pow);
    expect(credited).toEqual({ difficulty: pow.difficultyForTarget(easyNetwork), isBlock: true, value: 1500n });
    expect(credited?.difficulty).toBeLessThan(issued.difficulty);
  });
});
