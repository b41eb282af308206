import { describe, expect, it } from 'vitest';
import { newAccountName, pickAccount } from './accounts';

describe('pickAccount', () => {
  it('takes the first preferred name the user has, else the first account', () => {
    expect(pickAccount(['a', 'b', 'c'], 'b')).toBe('b');
    expect(pickAccount(['a', 'b', 'c'], 'x', null, 'c')).toBe('c');
    expect(pickAccount(['a', 'b', 'c'], null, undefined)).toBe('a');
    expect(pickAccount(['a', 'b'], 'someone-elses')).toBe('a');
    expect(pickAccount([], 'a')).toBeNull();
  });
});

describe('newAccountName', () => {
  it('sends no new account for an empty name', () => {
    expect(newAccountName('   ')).toBeNull();
    expect(newAccountName('')).toBeNull();
    expect(newAccountName(' miner02 ')).toBe('miner02');
  });
});
