import { describe, expect, it } from 'vitest';
import { normalizeAddress } from '../net/address.js';
import { AddressGuard } from './addressGuard.js';
import { ExtranonceAllocator } from './extranonce.js';

describe('AddressGuard', () => {
  it('limits open connections per address and bans for a while', () => {
    let now = 0;
    const guard = new AddressGuard(2, () => now);
    expect(guard.admit('1.2.3.4')).toBeUndefined();
    expect(guard.admit('1.2.3.4')).toBeUndefined();
    expect(guard.admit('1.2.3.4')).toBe('connection-limit');
    expect(guard.admit('5.6.7.8')).toBeUndefined();
    guard.release('1.2.3.4');
    expect(guard.admit('1.2.3.4')).toBeUndefined();

    guard.ban('9.9.9.9', 1000);
    expect(guard.admit('9.9.9.9')).toBe('banned');
    now = 1000;
    guard.sweep();
    expect(guard.isBanned('9.9.9.9')).toBe(false);
    expect(guard.admit('9.9.9.9')).toBeUndefined();
  });

  it('names IPv4 clients of dual-stack sockets by their IPv4 address', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress('::1')).toBe('::1');
    expect(normalizeAddress(undefined)).toBe('unknown');
  });
});

describe('ExtranonceAllocator', () => {
  it('gives open sessions distinct 4-byte values', () => {
    const allocator = new ExtranonceAllocator();
    const values = Array.from({ length: 1000 }, () => allocator.allocate());
    expect(new Set(values.map((v) => v.hex)).size).toBe(1000);
    expect(values.every((v) => v.bytes.length === 4 && v.hex.length === 8)).toBe(true);
    for (const v of values) allocator.release(v);
    expect(allocator.size).toBe(0);
  });
});
