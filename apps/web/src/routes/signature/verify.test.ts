import { describe, expect, it } from 'vitest';
import { compareHashes, hashPastedText, isSignatureFormat, kindText, pastedVariants, sha256Hex } from './verify';

// SHA-256 of the empty string and of "abc" (FIPS 180-2 test vectors).
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('signature verification', () => {
  it('hashes bytes with SHA-256 as lowercase hex', async () => {
    expect(await sha256Hex(new Uint8Array())).toBe(EMPTY);
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(ABC);
  });

  it('compares hashes whatever the case of the digits', () => {
    expect(compareHashes(ABC.toUpperCase(), [ABC])).toBe('valid');
    expect(compareHashes(ABC, [EMPTY])).toBe('mismatch');
    expect(compareHashes(ABC, [EMPTY, ABC])).toBe('valid');
  });

  it('forgives only the final line breaks of pasted text', async () => {
    expect(pastedVariants('a\r\nb\n\n')).toEqual(['a\nb\n\n', 'a\nb\n', 'a\nb']);
    expect(pastedVariants('abc')).toEqual(['abc', 'abc\n']);
    expect(compareHashes(ABC, await hashPastedText('abc\n'))).toBe('valid');
    expect(compareHashes(ABC, await hashPastedText('abc '))).toBe('mismatch');
    expect(compareHashes(ABC, await hashPastedText('ab c'))).toBe('mismatch');
  });

  it('recognises signatures the pool issues', () => {
    expect(isSignatureFormat(ABC)).toBe(true);
    expect(isSignatureFormat('abc')).toBe(false);
    expect(isSignatureFormat(`${ABC}0`)).toBe(false);
  });

  it('names the kinds of documents', () => {
    expect(kindText('statement')).toBe('a monthly earnings statement');
    expect(kindText('payout')).toBe('a payout receipt');
    expect(kindText('tax_report')).toBe('a document (tax report)');
  });
});
