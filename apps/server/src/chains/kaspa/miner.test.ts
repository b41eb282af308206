import { POW } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { KaspaMiner, minerTarget } from './miner.js';

describe('Kaspa miner (client side)', () => {
  it("computes the ASIC firmware's target, never above the pool's (2^224 − 1) / d", () => {
    expect(minerTarget(1)).toBe(0xffffn << 208n);
    expect(minerTarget(2 ** -28)).toBe(0xffffn << 236n);
    expect(minerTarget(3)).toBe((0xffffn << 208n) / 3n);
    for (const d of [2 ** -28, 1e-7, 0.5, 1, 3, 64, 4096.5, 2 ** 30]) {
      expect(minerTarget(d)).toBeLessThanOrEqual(POW.kheavyhash.targetForDifficulty(d));
    }
  });

  it('reads the legacy job exactly from the raw line, and ignores a malformed job', () => {
    const miner = new KaspaMiner('goldshell');
    const max = 2n ** 64n - 1n;
    const line = `{"id":null,"method":"mining.notify","params":["7",[${max},1,9007199254740993,0],1700000000000]}`;
    miner.notification('mining.notify', JSON.parse(line).params, line);
    miner.notification('mining.set_difficulty', [1], '');
    expect(miner.jobId).toBe('7');
    expect(miner.ready).toBe(true);
    expect(miner.malformedNotifications).toBe(0);
    const bad = '{"id":null,"method":"mining.notify","params":["9",[1,2,3],5]}';
    miner.notification('mining.notify', JSON.parse(bad).params, bad);
    expect(miner.malformedNotifications).toBe(1);
    expect(miner.jobId).toBe('7');
  });

  it('legacy and big jobs of the same work hash the same nonces alike', () => {
    const words = [2n ** 64n - 1n, 1n, 2n ** 53n + 1n, 0n];
    const hash = Buffer.alloc(32);
    for (const [i, w] of words.entries()) hash.writeBigUInt64LE(w, 8 * i);
    const timestamp = Buffer.alloc(8);
    timestamp.writeBigUInt64LE(1_700_000_000_123n);
    const legacy = new KaspaMiner('goldshell');
    const legacyLine = `{"id":null,"method":"mining.notify","params":["1",[${words.join(',')}],1700000000123]}`;
    legacy.notification('mining.notify', JSON.parse(legacyLine).params, legacyLine);
    const bigJob = new KaspaMiner('iceriver');
    const data = `${hash.toString('hex')}${timestamp.toString('hex')}`;
    bigJob.notification('mining.notify', ['1', data], '');
    expect(legacy.malformedNotifications + bigJob.malformedNotifications).toBe(0);
    for (const nonce of [0n, 42n, 2n ** 63n + 5n]) expect(legacy.hashValue(nonce)).toBe(bigJob.hashValue(nonce));
  });

  it('puts its extranonce in the high bytes and writes the submit as its kind does', () => {
    const miner = new KaspaMiner('lolminer');
    miner.notification('mining.set_extranonce', ['abcd'], '');
    expect(miner.nonce2Size).toBe(6);
    const nonce = miner.nonceFor(0x0102n);
    expect(nonce).toBe(0xabcd000000000102n);
    const bz = new KaspaMiner('bzminer');
    expect(bz.submitParams(nonce)).toEqual(['0xabcd000000000102']);
    expect(new KaspaMiner('iceriver').submitParams(nonce)).toEqual(['abcd000000000102']);
  });
});
