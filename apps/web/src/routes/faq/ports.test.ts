import type { StratumListenerInfo } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { portsOfKind } from './ports';

const listener = (
  algorithm: StratumListenerInfo['algorithm'],
  port: number,
  kind: StratumListenerInfo['kind'],
  tls = false,
) =>
  ({
    algorithm,
    port,
    kind,
    tls,
    host: 'pool.example',
    url: `stratum+tcp://pool.example:${port}`,
  }) as StratumListenerInfo;

describe('the FAQ ports', () => {
  it('are the configured ones of each kind, in the order of algorithms', () => {
    const listeners = [
      listener('x11', 3354, 'marketplace'),
      listener('scrypt', 3334, 'marketplace'),
      listener('scrypt', 3335, 'marketplace', true),
      listener('sha256', 3342, 'xnsub'),
      listener('scrypt', 3333, 'standard'),
      listener('scrypt', 3334, 'marketplace', true),
    ];
    expect(portsOfKind(listeners, 'marketplace')).toBe('SCRYPT 3334/3335, X11 3354');
    expect(portsOfKind(listeners, 'xnsub')).toBe('SHA256 3342');
    expect(portsOfKind([], 'xnsub')).toBe('');
  });
});
