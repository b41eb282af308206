import { describe, expect, it } from 'vitest';
import { EMAIL_BREAKS, PATH_BREAKS } from './Breakable';

describe('break points of long text', () => {
  it('an e-mail parts after the @ and before each dot, and nowhere else (not at a hyphen)', () => {
    expect('ops.team@pool-admins.example.org'.split(EMAIL_BREAKS)).toEqual([
      'ops',
      '.team@',
      'pool-admins',
      '.example',
      '.org',
    ]);
    expect('plain'.split(EMAIL_BREAKS)).toEqual(['plain']);
  });

  it('an API path parts after dots, bars and braces', () => {
    expect('hashrate.{scrypt|sha256}.active_workers'.split(PATH_BREAKS)).toEqual([
      'hashrate.',
      '{',
      'scrypt|',
      'sha256}.',
      'active_workers',
    ]);
  });

  it('the parts always join back into the text', () => {
    for (const text of ['a@b.c', 'payments[].txID', 'x.y|z{w}']) {
      expect(text.split(EMAIL_BREAKS).join('')).toBe(text);
      expect(text.split(PATH_BREAKS).join('')).toBe(text);
    }
  });
});
