import type { StratumResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import {
  canAddWorker,
  parseWizardDone,
  shortStratumUrl,
  shouldOpenWizard,
  stratumUrlFor,
  withWizardDone,
  workerLogin,
  workersForSummary,
} from './wizard';

type Listener = StratumResponse['listeners'][number];
const listener = (over: Partial<Listener>): Listener => ({
  algorithm: 'scrypt',
  host: 'scrypt.stratum.pool.example.org',
  port: 3333,
  kind: 'standard',
  tls: false,
  url: 'stratum+tcp://scrypt.stratum.pool.example.org:3333',
  start_difficulty: 64,
  min_difficulty: 1,
  max_difficulty: 1e9,
  demo: false,
  ...over,
});

describe('mining wizard', () => {
  it('shows the standard, unencrypted port of the algorithm; null when not served', () => {
    const listeners = [
      listener({ kind: 'marketplace', port: 3334, url: 'stratum+tcp://m:3334' }),
      listener({ tls: true, url: 'stratum+ssl://s:3335' }),
      listener({}),
      listener({ algorithm: 'sha256', url: 'stratum+tcp://sha:3343' }),
    ];
    expect(stratumUrlFor(listeners, 'SCRYPT')).toBe('stratum+tcp://scrypt.stratum.pool.example.org:3333');
    expect(stratumUrlFor(listeners, 'SHA256')).toBe('stratum+tcp://sha:3343');
    expect(stratumUrlFor(listeners, 'X11')).toBeNull();
    expect(
      stratumUrlFor([listener({ kind: 'xnsub', url: 'x' }), listener({ kind: 'marketplace', url: 'm' })], 'SCRYPT'),
    ).toBe('m');
  });

  it('abbreviates the stratum URL to its first 10 and last 10 characters', () => {
    expect(shortStratumUrl('stratum+tcp://scrypt.stratum.pool.example.org:3333')).toBe('stratum+tc…e.org:3333');
    expect(shortStratumUrl('stratum+tcp://a:1')).toBe('stratum+tcp://a:1');
  });

  it('logins are account.worker; names are trimmed, without spaces, unique', () => {
    expect(workerLogin('miner01', ' rig1 ')).toBe('miner01.rig1');
    expect(canAddWorker([], '  ')).toBe(false);
    expect(canAddWorker([], 'rig 1')).toBe(false);
    expect(canAddWorker(['rig1'], 'rig1')).toBe(false);
    expect(canAddWorker([], 'x'.repeat(33))).toBe(false);
    expect(canAddWorker([], 'rig.1')).toBe(true);
    expect(workersForSummary(['a'], ' b ')).toEqual(['a', 'b']);
    expect(workersForSummary(['a'], '')).toEqual(['a']);
    expect(workersForSummary([], '')).toEqual([]);
  });

  it('opens once per account, only without workers on any algorithm', () => {
    expect(shouldOpenWizard([], 'miner01', [0, 0, 0, 0, 0, 0])).toBe(true);
    expect(shouldOpenWizard([], 'miner01', [0, 2, 0, 0, 0, 0])).toBe(false);
    expect(shouldOpenWizard([], 'miner01', [0, undefined, 0, 0, 0, 0])).toBe(false);
    expect(shouldOpenWizard(['miner01'], 'miner01', [0, 0, 0, 0, 0, 0])).toBe(false);
    expect(shouldOpenWizard(['other'], 'miner01', [0, 0, 0, 0, 0, 0])).toBe(true);
  });

  it('remembers finished wizards in local storage, ignoring damaged values', () => {
    expect(parseWizardDone(null)).toEqual([]);
    expect(parseWizardDone('not json')).toEqual([]);
    expect(parseWizardDone('{"a":1}')).toEqual([]);
    expect(parseWizardDone('["a",2,"b"]')).toEqual(['a', 'b']);
    expect(withWizardDone(['a'], 'b')).toEqual(['a', 'b']);
    expect(withWizardDone(['a'], 'a')).toEqual(['a']);
  });
});
