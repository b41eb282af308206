import { describe, expect, it } from 'vitest';
import { parseLogin, requestedDifficulty } from './login.js';

describe('parseLogin', () => {
  it('splits {account}.{worker}, defaulting the worker', () => {
    expect(parseLogin('alice.rig1')).toEqual({ account: 'alice', worker: 'rig1', xnsub: false });
    expect(parseLogin('alice')).toEqual({ account: 'alice', worker: 'default', xnsub: false });
    expect(parseLogin('alice.')).toEqual({ account: 'alice', worker: 'default', xnsub: false });
    expect(parseLogin('bob_2.rack1.rig7')).toEqual({ account: 'bob_2', worker: 'rack1.rig7', xnsub: false });
    expect(parseLogin('alice.rig1#xnsub')).toEqual({ account: 'alice', worker: 'rig1', xnsub: true });
  });

  it('refuses names outside the rules', () => {
    for (const login of [
      'ab.rig',
      'a'.repeat(33),
      'al ice.rig',
      'alice.rig#1',
      '',
      '.rig',
      `alice.${'w'.repeat(33)}`,
    ]) {
      expect(typeof parseLogin(login)).toBe('string');
    }
  });
});

describe('requestedDifficulty', () => {
  it('reads d=N among other password options', () => {
    expect(requestedDifficulty('x')).toBeUndefined();
    expect(requestedDifficulty('d=512')).toBe(512);
    expect(requestedDifficulty('x,d=0.5')).toBe(0.5);
    expect(requestedDifficulty('d=1e6;foo')).toBe(1e6);
    expect(requestedDifficulty('d=0')).toBeUndefined();
    expect(requestedDifficulty('d=abc')).toBeUndefined();
  });
});
