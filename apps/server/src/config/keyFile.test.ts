import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readKeyFile } from './keyFile.js';

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
