import { ALGORITHMS } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import {
  parseIsLoggedIn,
  parseSelectedAccount,
  parseSelectedAlgorithm,
  parseTheme,
  STORAGE_KEYS,
  serializeIsLoggedIn,
  serializeSelectedAccount,
} from './clientState';

describe('storage keys', () => {
  it('uses the names docs/website.md gives', () => {
    expect(Object.values(STORAGE_KEYS)).toEqual(['selectedAlgorithm', 'selectedAccount', 'isLoggedIn', 'theme']);
  });
});

describe('parseSelectedAlgorithm', () => {
  it('defaults to SCRYPT when nothing is stored', () => {
    expect(parseSelectedAlgorithm(null)).toBe('SCRYPT');
  });

  it('keeps every algorithm name', () => {
    for (const a of ALGORITHMS) expect(parseSelectedAlgorithm(a.name)).toBe(a.name);
  });

  it.each(['', 'sha256', 'Scrypt', 'ETHASH', ' SHA256', '"SHA256"', 'null'])('falls back to SCRYPT for %j', (raw) => {
    expect(parseSelectedAlgorithm(raw)).toBe('SCRYPT');
  });
});

describe('parseSelectedAccount', () => {
  it('is null when nothing usable is stored', () => {
    for (const raw of [null, '', '   ', 'null', 'undefined']) expect(parseSelectedAccount(raw)).toBeNull();
  });

  it('returns the stored account name, trimmed', () => {
    expect(parseSelectedAccount('miner01')).toBe('miner01');
    expect(parseSelectedAccount(' miner01 ')).toBe('miner01');
  });

  it('serializes null as "remove the key" and a name as itself', () => {
    expect(serializeSelectedAccount(null)).toBeNull();
    expect(serializeSelectedAccount('')).toBeNull();
    expect(serializeSelectedAccount('miner01')).toBe('miner01');
  });
});

describe('parseIsLoggedIn', () => {
  it('is true only for the exact text "true"', () => {
    expect(parseIsLoggedIn('true')).toBe(true);
    for (const raw of [null, '', 'false', 'TRUE', 'True', '1', 'yes', ' true'])
      expect(parseIsLoggedIn(raw)).toBe(false);
  });

  it('round-trips through its serialized form', () => {
    expect(parseIsLoggedIn(serializeIsLoggedIn(true))).toBe(true);
    expect(parseIsLoggedIn(serializeIsLoggedIn(false))).toBe(false);
  });
});

describe('parseTheme', () => {
  it('is dark only when the stored value is "dark"', () => {
    expect(parseTheme('dark')).toBe('dark');
    for (const raw of [null, '', 'light', 'Dark', 'DARK', 'system', ' dark']) expect(parseTheme(raw)).toBe('light');
  });
});
