import { describe, expect, it } from 'vitest';
import { ByteReader, ParseError } from './reader.js';
import { bip34HeightPush, encodeScriptNumber, encodeVarInt, pushData } from './serialize.js';

describe('CompactSize (varint)', () => {
  it.each([
    [0, '00'],
    [0xfc, 'fc'],
    [0xfd, 'fdfd00'],
    [0xffff, 'fdffff'],
    [0x10000, 'fe00000100'],
    [0xffffffff, 'feffffffff'],
    [0x100000000, 'ff0000000001000000'],
  ])('%i → %s and back', (value, hex) => {
    expect(encodeVarInt(value).toString('hex')).toBe(hex);
    expect(new ByteReader(Buffer.from(hex, 'hex')).varInt()).toBe(value);
  });

  it('refuses non-canonical encodings and overruns', () => {
    expect(() => new ByteReader(Buffer.from('fd0500', 'hex')).varInt()).toThrow(ParseError);
    expect(() => new ByteReader(Buffer.from('fe', 'hex')).varInt()).toThrow(ParseError);
    expect(() => encodeVarInt(-1)).toThrow(RangeError);
  });
});

describe('script numbers (CScriptNum)', () => {
  it.each([
    [0, ''],
    [1, '01'],
    [-1, '81'],
    [127, '7f'],
    [128, '8000'],
    [-128, '8080'],
    [255, 'ff00'],
    [256, '0001'],
    [32767, 'ff7f'],
    [32768, '008000'],
    [65536, '000001'],
    [486604799, 'ffff001d'],
  ])('%i → %s', (value, hex) => {
    expect(encodeScriptNumber(value).toString('hex')).toBe(hex);
  });
});

describe('BIP34 height push', () => {
  // `CScript() << nHeight` (Bitcoin Core): small values use OP_1..OP_16; others push the script number.
  it.each([
    [1, '51'],
    [16, '60'],
    [17, '0111'],
    [127, '017f'],
    [128, '028000'],
    [255, '02ff00'],
    [256, '020001'],
    [65536, '03000001'],
    [2_383_209, '03695d24'], // Litecoin mainnet block 2,383,209's coinbase starts 03695d24
  ])('height %i → %s', (height, hex) => {
    expect(bip34HeightPush(height).toString('hex')).toBe(hex);
  });
});

describe('pushData', () => {
  it('uses the smallest push opcode', () => {
    expect(pushData(Buffer.alloc(75)).subarray(0, 1).toString('hex')).toBe('4b');
    expect(pushData(Buffer.alloc(76)).subarray(0, 2).toString('hex')).toBe('4c4c');
    expect(pushData(Buffer.alloc(256)).subarray(0, 3).toString('hex')).toBe('4d0001');
  });
});
