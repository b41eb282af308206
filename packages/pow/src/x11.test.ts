import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { displayHexToHash, encodeBitcoinHeader, HEADER_NONCE_OFFSET, hashToDisplayHex } from './header.js';
import { targetFromBits } from './target.js';
import { X11_WASM_LAYOUT } from './x11/wasm.js';
import { x11Digest, x11Pow } from './x11.js';

// Dash genesis blocks, dashpay/dash src/chainparams.cpp:
//   mainnet: CreateGenesisBlock(1390095618, 28917698, 0x1e0ffff0, 1, 50 * COIN)
//            hashGenesisBlock == 0x00000ffd590b1485b3caadc19b22e6379c733355108f107a430458cdf3407ab6
//   testnet: CreateGenesisBlock(1390666206, 3861367235UL, 0x1e0ffff0, 1, 50 * COIN)
//            hashGenesisBlock == 0x00000bafbc94add76cb75e2ec92894837288a481e5c005f6563d91623bf8bc2c
//   both:    hashMerkleRoot == 0xe0028eb9648db56b1ac77cf090b99048a8007e2bb64b68f092c03c7f56a662c7
const MERKLE = displayHexToHash('e0028eb9648db56b1ac77cf090b99048a8007e2bb64b68f092c03c7f56a662c7');
const genesis = (time: number, nonce: number) =>
  encodeBitcoinHeader({ version: 1, prevHash: new Uint8Array(32), merkleRoot: MERKLE, time, bits: 0x1e0ffff0, nonce });

describe('X11 (Dash)', () => {
  it('hashes the Dash mainnet genesis header to its block hash', () => {
    const header = genesis(1390095618, 28917698);
    expect(bytesToHex(header)).toBe(
      '010000000000000000000000000000000000000000000000000000000000000000000000c762a6567f3cc092f0684bb62b7e00a84890b990f07cc71a6bb58d64b98e02e0022ddb52f0ff0f1ec23fb901',
    );
    const hash = x11Pow.hash(header);
    expect(hashToDisplayHex(hash)).toBe('00000ffd590b1485b3caadc19b22e6379c733355108f107a430458cdf3407ab6');
    expect(x11Pow.meetsTarget(hash, targetFromBits(0x1e0ffff0))).toBe(true);
  });

  it('hashes the Dash testnet genesis header to its block hash', () => {
    const hash = x11Pow.hash(genesis(1390666206, 3861367235));
    expect(hashToDisplayHex(hash)).toBe('00000bafbc94add76cb75e2ec92894837288a481e5c005f6563d91623bf8bc2c');
  });

  // dashevo/wasm-x11-hash test/x11.spec.js and test/fixtures.js (the package's published vectors)
  it.each([
    ['', '51b572209083576ea221c27e62b4e22063257571ccb6cc3dc3cd17eb67584eba'],
    ['The quick brown fox jumps over the lazy dog', '534536a4e4f16b32447f02f77200449dc2f23b532e3d9878fe111c9de666bc5c'],
    ['DASH', 'fe809ebca8753d907f6ad32cdcf8e5c4e090d7bece5df35b2147e10b88c12d26'],
  ])('X11 of the string "%s"', (text, expected) => {
    expect(bytesToHex(x11Digest(new TextEncoder().encode(text)))).toBe(expected);
  });

  it('X11 of the header fixture of wasm-x11-hash', () => {
    const header = hexToBytes(
      '0400000097ea9c8bee806143a8ae50116fe3d329dcbb18b5d8ea71a7a213a1b052000000b1950f668df2593684169b0e33ee7fb1b8e00d90ed906d80b4c2baa7d1b65f548f495a57ed98521d348b0700',
    );
    expect(bytesToHex(x11Pow.hash(header))).toBe('01840edc7f98704e3c66c6fcad1e90642a382f7c1cb4af64ed085cc50c000000');
  });

  it('hashes inputs longer than its preallocated buffer', () => {
    const long = new Uint8Array(1000).fill(7);
    expect(bytesToHex(x11Digest(long))).toBe(bytesToHex(x11Digest(Uint8Array.from(long))));
    expect(hashToDisplayHex(x11Pow.hash(genesis(1390095618, 28917698)))).toBe(
      '00000ffd590b1485b3caadc19b22e6379c733355108f107a430458cdf3407ab6',
    );
  });

  it('a flipped nonce byte changes the hash and loses the proof of work', () => {
    const header = genesis(1390095618, 28917698);
    header[HEADER_NONCE_OFFSET + 3] = (header[HEADER_NONCE_OFFSET + 3] as number) ^ 0x01;
    const hash = x11Pow.hash(header);
    expect(hashToDisplayHex(hash)).not.toBe('00000ffd590b1485b3caadc19b22e6379c733355108f107a430458cdf3407ab6');
    expect(x11Pow.meetsTarget(hash, targetFromBits(0x1e0ffff0))).toBe(false);
  });

  it('rejects inputs that are not 80 bytes', () => {
    expect(() => x11Pow.hash(new Uint8Array(0))).toThrow(RangeError);
  });

  it('loads the installed wasm-x11-hash build with the memory layout its own glue uses', () => {
    const require = createRequire(import.meta.url);
    const pkg = JSON.parse(readFileSync(require.resolve('wasm-x11-hash/package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toBe('0.0.2');
    const glue = readFileSync(require.resolve('wasm-x11-hash/lib/wasm-build/x11-hash.js'), 'utf8');
    expect(glue).toContain(`DYNAMIC_BASE=${X11_WASM_LAYOUT.dynamicBase}`);
    expect(glue).toContain(`DYNAMICTOP_PTR=${X11_WASM_LAYOUT.dynamicTopPointer}`);
    expect(glue).toContain(`INITIAL_MEMORY=Module["INITIAL_MEMORY"]||${X11_WASM_LAYOUT.memoryBytes}`);
    expect(glue).toContain('"c":_emscripten_get_heap_size,"b":_emscripten_memcpy_big,"a":_emscripten_resize_heap');
    expect(glue).toContain(
      'Module["_create_buffer"]=function(){return(_create_buffer=Module["_create_buffer"]=Module["asm"]["d"])',
    );
    expect(glue).toContain(
      'Module["_destroy_buffer"]=function(){return(_destroy_buffer=Module["_destroy_buffer"]=Module["asm"]["e"])',
    );
    expect(glue).toContain('Module["_digest"]=function(){return(_digest=Module["_digest"]=Module["asm"]["f"])');
  });
});
