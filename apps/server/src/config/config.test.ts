import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from './config.js';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('reads the balancers allowed to send PROXY headers, and refuses what is no address or range', () => {
    expect(parseConfig({}).proxyProtocolFrom).toEqual([]);
    expect(parseConfig({ PROXY_PROTOCOL_FROM: '["10.0.0.5","192.168.8.0/24","fd00::/64"]' }).proxyProtocolFrom).toEqual(
      ['10.0.0.5', '192.168.8.0/24', 'fd00::/64'],
    );
    for (const wrong of ['["balancer.example"]', '["10.0.0.0/33"]', '["fd00::/129"]', '["10.0.0.0/8/1"]']) {
      expect(() => parseConfig({ PROXY_PROTOCOL_FROM: wrong }), wrong).toThrow(/PROXY_PROTOCOL_FROM/);
    }
  });

  it('uses the documented defaults when nothing is set', () => {
    const config = parseConfig({}, {}, '/srv/pool');
    expect(config.port).toBe(8080);
    // Dual stack: every IPv6 and IPv4 address (stratum's default ports too).
    expect(config.host).toBe('::');
    expect(new Set(config.stratumListeners.map((l) => l.host))).toEqual(new Set(['::']));
    expect(config.dataDir).toBe('/srv/pool/data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.feePercent).toBe(1);
    expect(config.socials).toEqual([]);
    expect(config.metricsEnabled).toBe(true);
  });

  it('reads typed values from the environment', () => {
    const config = parseConfig({
      PORT: '9000',
      FEE_PERCENT: '0.5',
      TRUST_PROXY: 'yes',
      DATABASE_URL: 'postgresql://pool@db:5432/lodestone',
      PUBLIC_URL: 'https://pool.example.org/',
      SOCIAL_LINKS: '[{"label":"X","url":"https://x.com/pool"}]',
    });
    expect(config.port).toBe(9000);
    expect(config.feePercent).toBe(0.5);
    expect(config.trustProxy).toBe(true);
    expect(config.databaseUrl).toBe('postgresql://pool@db:5432/lodestone');
    expect(config.publicUrl).toBe('https://pool.example.org');
    expect(config.socials).toEqual([{ label: 'X', url: 'https://x.com/pool' }]);
  });

  it('names the setting when PORT is not a number', () => {
    expect(problemsOf(() => parseConfig({ PORT: 'abc' }))).toEqual([
      'PORT: expected an integer from 1 to 65535, got "abc"',
    ]);
  });

  it.each(['0', '65536', '80.5', '-1'])('refuses PORT=%s', (port) => {
    expect(problemsOf(() => parseConfig({ PORT: port }))[0]).toMatch(/^PORT: /);
  });

  it('names DATABASE_URL when its scheme is unknown', () => {
    const [problem] = problemsOf(() => parseConfig({ DATABASE_URL: 'mysql://root@localhost/pool' }));
    expect(problem).toContain('DATABASE_URL');
    expect(problem).toContain("'mysql:'");
  });

  it('collects every problem at once', () => {
    const problems = problemsOf(() => parseConfig({ PORT: 'x', FEE_PERCENT: '101', LOG_LEVEL: 'loud' }));
    expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'LOG_LEVEL', 'FEE_PERCENT']);
  });

  it('takes file values, lets the environment win, and names file keys in errors', () => {
    const file = { server: { port: 7000, host: '127.0.0.1' }, pool: { name: 'Acme Pool' } };
    const config = parseConfig({ PORT: '7100' }, file);
    expect(config.port).toBe(7100);
    expect(config.host).toBe('127.0.0.1');
    expect(config.poolName).toBe('Acme Pool');
    expect(problemsOf(() => parseConfig({}, { pool: { fee_percent: 'lots' } }))[0]).toMatch(/^pool\.fee_percent: /);
  });

  it('refuses unknown keys in the config file (typos must not be silently ignored)', () => {
    expect(problemsOf(() => parseConfig({}, { server: { prot: 1 } }))).toEqual([
      "config file: unknown setting 'server.prot'",
    ]);
  });
});

describe('stratum and coin settings', () => {
  it('defaults to a standard, marketplace, xnsub and solo port per algorithm, all six', () => {
    const config = parseConfig({});
    expect(config.stratumListeners.map((l) => `${l.algorithm}:${l.port}:${l.kind}`)).toEqual([
      'scrypt:3333:standard',
      'scrypt:3334:marketplace',
      'scrypt:3332:xnsub',
      'scrypt:3335:solo',
      'sha256:3343:standard',
      'sha256:3344:marketplace',
      'sha256:3342:xnsub',
      'sha256:3345:solo',
      'x11:3353:standard',
      'x11:3354:marketplace',
      'x11:3352:xnsub',
      'x11:3355:solo',
      'eaglesong:3363:standard',
      'eaglesong:3364:marketplace',
      'eaglesong:3362:xnsub',
      'eaglesong:3365:solo',
      'blake2s:3373:standard',
      'blake2s:3374:marketplace',
      'blake2s:3372:xnsub',
      'blake2s:3375:solo',
      'kheavyhash:3383:standard',
      'kheavyhash:3384:marketplace',
      'kheavyhash:3382:xnsub',
      'kheavyhash:3385:solo',
    ]);
    expect(config.coins).toEqual([]);
    expect(config.nodeName).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('reads listeners and coins from the file with their defaults filled in', () => {
    const config = parseConfig(
      {},
      {
        stratum: { listeners: [{ algorithm: 'scrypt', port: 4000, min_difficulty: 8 }] },
        coins: [
          {
            ticker: 'LTC',
            algorithm: 'scrypt',
            daemons: ['http://u:p@127.0.0.1:9332'],
            pool_address: 'ltc1qexample',
            rules: ['mweb', 'segwit'],
          },
        ],
      },
    );
    expect(config.stratumListeners).toEqual([
      { algorithm: 'scrypt', port: 4000, host: '::', kind: 'standard', min_difficulty: 8, tls: false },
    ]);
    expect(config.coins[0]).toMatchObject({ ticker: 'LTC', poll_interval_ms: 1000, pool_tag: '/lodestone/' });
  });

  it('refuses clashing ports, inverted bounds, TLS without files and two coins on one algorithm', () => {
    const problems = problemsOf(() =>
      parseConfig(
        {
          STRATUM_LISTENERS: JSON.stringify([
            { algorithm: 'sha256', port: 5000 },
            { algorithm: 'x11', port: 5000, min_difficulty: 10, max_difficulty: 1, tls: true },
          ]),
        },
        {
          coins: [
            { ticker: 'BTC', algorithm: 'sha256', daemons: ['http://127.0.0.1:8332'], pool_address: 'bc1q' },
            { ticker: 'BCH', algorithm: 'sha256', daemons: ['http://127.0.0.1:8342'], pool_address: 'qq' },
          ],
        },
      ),
    );
    expect(problems).toEqual([
      'STRATUM_LISTENERS: entries 0 and 1 both use [::]:5000',
      'STRATUM_LISTENERS: entry 1 ([::]:5000) has min_difficulty above max_difficulty',
      'STRATUM_LISTENERS: entry 1 ([::]:5000) uses TLS; set STRATUM_TLS_KEY_FILE and STRATUM_TLS_CERT_FILE',
      'COINS: BTC and BCH are both mined with sha256; one coin per algorithm',
    ]);
  });

  it('names the field of a bad listener', () => {
    const [problem] = problemsOf(() => parseConfig({ STRATUM_LISTENERS: '[{"algorithm":"ethash","port":1}]' }));
    expect(problem).toMatch(/^STRATUM_LISTENERS: .*\(at 0\.algorithm\)/);
  });
});

describe('loadConfig', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lodestone-config-'));

  it('reads a TOML file named by LODESTONE_CONFIG', () => {
    const file = path.join(dir, 'pool.toml');
    writeFileSync(
      file,
      '[server]\nport = 8181\n\n[site]\nsocials = [{ label = "Chat", url = "https://chat.example" }]\n',
    );
    const config = loadConfig({ LODESTONE_CONFIG: file }, dir);
    expect(config.port).toBe(8181);
    expect(config.socials).toEqual([{ label: 'Chat', url: 'https://chat.example' }]);
  });

  it('reads a JSON file', () => {
    const file = path.join(dir, 'pool.json');
    writeFileSync(file, JSON.stringify({ database: { data_dir: 'state' } }));
    expect(loadConfig({ LODESTONE_CONFIG: 'pool.json' }, dir).dataDir).toBe(path.join(dir, 'state'));
  });

  it('explains a broken or missing file', () => {
    const file = path.join(dir, 'broken.toml');
    writeFileSync(file, '[server\nport = 1');
    expect(problemsOf(() => loadConfig({ LODESTONE_CONFIG: file }, dir))[0]).toMatch(
      /^LODESTONE_CONFIG: .* is not valid TOML/,
    );
    expect(problemsOf(() => loadConfig({ LODESTONE_CONFIG: 'missing.toml' }, dir))[0]).toMatch(
      /^LODESTONE_CONFIG: cannot read/,
    );
  });
});
