import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { keyFileProblems, readKeyFile } from './keyFile.js';

const dir = mkdtempSync(join(tmpdir(), 'lodestone-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keyFile(name: string, text: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const KEY = 'AB'.repeat(32);

describe('readKeyFile', () => {
  it('reads one line of hex, with or without 0x, from a file only its owner can read', () => {
    expect(readKeyFile(keyFile('plain', `${KEY}\n`, 0o600), 'ETH wallet')).toBe(`0x${'ab'.repeat(32)}`);
    expect(readKeyFile(keyFile('prefixed', `0x${KEY}`, 0o400), 'ETH wallet')).toBe(`0x${'ab'.repeat(32)}`);
  });

  it('refuses a key file other users can read, saying how to fix it', () => {
    const path = keyFile('open', KEY, 0o644);
    expect(() => readKeyFile(path, 'ETH wallet')).toThrow(
      `ETH wallet: key_file ${path} can be read or written by other users (mode 644); run chmod 600 ${path}`,
    );
    expect(() => readKeyFile(keyFile('group', KEY, 0o640), 'ETH wallet')).toThrow('(mode 640)');
  });

  it('refuses a file that is not one key of the right length, or is missing', () => {
    expect(() => readKeyFile(keyFile('short', 'ab'.repeat(31), 0o600), 'KAS wallet')).toThrow(
      'must hold one private key of 32 bytes as 64 hex digits',
    );
    expect(() => readKeyFile(keyFile('two', `${KEY}\n${KEY}`, 0o600), 'KAS wallet')).toThrow('one private key');
    expect(() => readKeyFile(join(dir, 'absent'), 'KAS wallet')).toThrow('cannot be read (ENOENT)');
  });
});

describe('keyFileProblems', () => {
  it('names every pool-signed wallet whose key file cannot be used, and skips node wallets', () => {
    const good = keyFile('good', KEY, 0o600);
    const open = keyFile('world', KEY, 0o644);
    const { wallets } = parseConfig({
      WALLETS: JSON.stringify([
        { kind: 'bitcoin', ticker: 'LTC', rpc_url: 'http://127.0.0.1:1' },
        { kind: 'evm', ticker: 'ETH', rpc_url: 'http://127.0.0.1:1', chain_id: 1, key_file: good, max_fee_gwei: '50' },
        { kind: 'kaspa', ticker: 'KAS', url: 'ws://127.0.0.1:1', network: 'kaspa', key_file: open },
      ]),
    });
    expect(keyFileProblems(wallets)).toEqual([
      `wallets: KAS: key_file ${open} can be read or written by other users (mode 644); run chmod 600 ${open}`,
    ]);
    expect(keyFileProblems([])).toEqual([]);
  });
});
