import type { StratumResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import {
  canAddWorker,
  modeShown,
  modesFor,
  parseWizardDone,
  shortStratumUrl,
  shouldOpenWizard,
  soloSentence,
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

  it("offers 'Pool (PPS)' and 'Solo' where the algorithm has a solo port, and shows that port's URL for solo", () => {
    const listeners = [
      listener({ kind: 'solo', port: 3335, tls: true, url: 'stratum+ssl://s:3336' }),
      listener({ kind: 'solo', port: 3335, url: 'stratum+tcp://s:3335' }),
      listener({ kind: 'marketplace', port: 3334, url: 'stratum+tcp://m:3334' }),
      listener({}),
      listener({ algorithm: 'sha256', url: 'stratum+tcp://sha:3343' }),
      listener({ algorithm: 'x11', kind: 'solo', url: 'stratum+tcp://x11:3355' }),
    ];
    // The pool's URL is never a solo port, even when it comes first.
    expect(stratumUrlFor(listeners, 'SCRYPT')).toBe('stratum+tcp://scrypt.stratum.pool.example.org:3333');
    expect(stratumUrlFor(listeners, 'SCRYPT', 'pool')).toBe('stratum+tcp://scrypt.stratum.pool.example.org:3333');
    expect(stratumUrlFor(listeners, 'SCRYPT', 'solo')).toBe('stratum+tcp://s:3335');
    expect(stratumUrlFor(listeners, 'SHA256', 'solo')).toBeNull();
    expect(stratumUrlFor(listeners, 'X11')).toBeNull();
    expect(stratumUrlFor(listeners, 'X11', 'solo')).toBe('stratum+tcp://x11:3355');

    expect(modesFor(listeners, 'SCRYPT')).toEqual(['pool', 'solo']);
    expect(modesFor(listeners, 'SHA256')).toEqual(['pool']);
    expect(modesFor(listeners, 'X11')).toEqual(['solo']);
    expect(modesFor(listeners, 'EAGLESONG')).toEqual([]);

    // The choice stands where the algorithm has it; otherwise the mode it has.
    expect(modeShown(listeners, 'SCRYPT', 'pool')).toBe('pool');
    expect(modeShown(listeners, 'SCRYPT', 'solo')).toBe('solo');
    expect(modeShown(listeners, 'SHA256', 'solo')).toBe('pool');
    expect(modeShown(listeners, 'X11', 'pool')).toBe('solo');
    expect(modeShown(listeners, 'EAGLESONG', 'pool')).toBeNull();
  });

  it('says what solo means with the solo fee, or without a figure until the site settings load', () => {
    expect(soloSentence(1)).toBe(
      'A block your workers find is yours, less the 1% solo fee, credited to your balance when it matures; their shares are not paid by PPS.',
    );
    expect(soloSentence(0.5)).toContain('less the 0.5% solo fee,');
    expect(soloSentence(undefined)).toContain('less the solo fee,');
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
