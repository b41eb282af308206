import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.js';
import { describeStratum, publicStratumHost } from './stratumInfo.js';

describe('describeStratum', () => {
  it('publishes one host per algorithm under the stratum domain, or the local host as is', () => {
    expect(publicStratumHost('example.org', 'scrypt')).toBe('scrypt.stratum.example.org');
    expect(publicStratumHost('localhost', 'scrypt')).toBe('localhost');
    expect(publicStratumHost('192.168.1.20', 'x11')).toBe('192.168.1.20');
  });

  it('lists every configured port with its URL, kind and difficulty bounds', () => {
    const config = parseConfig({
      STRATUM_HOST: 'example.org',
      STRATUM_LISTENERS: JSON.stringify([
        { algorithm: 'sha256', port: 3333 },
        { algorithm: 'sha256', port: 3334, kind: 'marketplace' },
        { algorithm: 'scrypt', port: 3335, min_difficulty: 1024, public_host: 'ltc.example.org', public_port: 443 },
      ]),
      COINS: JSON.stringify([
        { ticker: 'LTC', algorithm: 'scrypt', daemons: ['http://u:p@127.0.0.1:9332'], pool_address: 'ltc1q' },
      ]),
      DEMO_WORKERS: '0',
    });
    const listeners = describeStratum(config);
    expect(listeners.map((l) => l.url)).toEqual([
      'stratum+tcp://sha256.stratum.example.org:3333',
      'stratum+tcp://sha256.stratum.example.org:3334',
      'stratum+tcp://ltc.example.org:443',
    ]);
    // SHA256 has no coin: the demo network, whose ports go down to tiny difficulties for CPU miners.
    expect(listeners[0]).toMatchObject({ kind: 'standard', demo: true });
    expect(listeners[0]?.min_difficulty).toBeLessThan(1);
    expect(listeners[1]).toMatchObject({ kind: 'marketplace', demo: true });
    expect(listeners[2]).toMatchObject({ demo: false, min_difficulty: 1024, start_difficulty: 1024 });
  });

  it('shows the ports actually bound when the stratum role runs in the same process', () => {
    const config = parseConfig({ STRATUM_LISTENERS: '[{"algorithm":"x11","port":0}]' });
    expect(describeStratum(config, [40123])[0]?.url).toBe('stratum+tcp://localhost:40123');
  });
});
