import { describe, expect, it } from 'vitest';
import { ipRange, normalizeAddress } from './address.js';

describe('client addresses', () => {
  it('spells an IPv4 client of a dual-stack socket as IPv4', () => {
    expect(normalizeAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAddress(undefined)).toBe('unknown');
  });

  it('keeps only the network of an address: IPv4 /24, IPv6 /48, a mapped IPv4 as IPv4', () => {
    expect(ipRange('203.0.113.77')).toBe('203.0.113.0/24');
    expect(ipRange('2001:db8:85a3:1234:5678::1')).toBe('2001:db8:85a3::/48');
    expect(ipRange('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(ipRange('127.0.0.1')).toBe('127.0.0.0/24');
    expect(ipRange('not an address')).toBeNull();
    expect(ipRange(undefined)).toBeNull();
  });
});
