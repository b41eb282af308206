import { blake2sWork, KADENA_WORK_LENGTH, kadenaNonce, kadenaTarget, readUint256LE } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { realMainnetHeaders } from '../testing/chainwebNode.js';
import {
  base64UrlToHash,
  encodeKadenaHeader,
  hashToBase64Url,
  KadenaHeaderError,
  kadenaBlockHash,
  parseKadenaHeader,
  TWENTY_CHAIN_GRAPH,
} from './header.js';

// 360 real mainnet01 headers of chain 5, heights 2 111 409 – 2 111 762 (318 bytes each: work ‖ block hash):
// kadena-io/chainweb-mining-client test/data/test-headers.bin at bdd2c7395d0f9f066d1f3d50ee7c277a9bffa081.
const headers = realMainnetHeaders();

describe('Kadena headers against real mainnet headers', () => {
  it('reads 360 headers', () => {
    expect(headers).toHaveLength(360);
  });

  it('the block hash of each is the Merkle root computed from its fields', () => {
    for (const header of headers) {
      expect(kadenaBlockHash(header.subarray(0, KADENA_WORK_LENGTH)).equals(header.subarray(KADENA_WORK_LENGTH))).toBe(
        true,
      );
    }
  });

  it('the Blake2s hash of each work header, read little-endian, is at or below its target', () => {
    for (const header of headers) {
      const work = header.subarray(0, KADENA_WORK_LENGTH);
      expect(readUint256LE(blake2sWork(work)) <= kadenaTarget(work)).toBe(true);
    }
  });

  it('reads the fields at the offsets packages/pow uses, and writes the same bytes back', () => {
    const work = (headers[0] as Buffer).subarray(0, KADENA_WORK_LENGTH);
    const fields = parseKadenaHeader(work);
    expect(fields.chainId).toBe(5);
    expect(fields.height).toBe(2_111_409n);
    expect(fields.versionCode).toBe(5);
    expect(fields.target).toBe(kadenaTarget(work));
    expect(fields.nonce).toBe(kadenaNonce(work));
    expect(new Date(Number(fields.creationTime / 1000n)).toISOString()).toBe('2021-11-01T06:38:30.857Z');
    expect(fields.adjacents.map((a) => a.chainId)).toEqual([...(TWENTY_CHAIN_GRAPH[5] as readonly number[])]);
    expect(Buffer.from(encodeKadenaHeader(fields)).equals(work)).toBe(true);
  });

  it('each header is the parent of the next one on the chain, heights one apart', () => {
    const byHash = new Map(headers.map((h) => [hashToBase64Url(h.subarray(KADENA_WORK_LENGTH)), h]));
    let linked = 0;
    for (const header of headers) {
      const fields = parseKadenaHeader(header);
      const parent = byHash.get(hashToBase64Url(fields.parent));
      if (parent) {
        expect(parseKadenaHeader(parent).height).toBe(fields.height - 1n);
        linked++;
      }
    }
    expect(linked).toBeGreaterThan(300);
  });

  it('refuses a header of the wrong size and a hash that is not 32 bytes of base64url', () => {
    expect(() => parseKadenaHeader(new Uint8Array(285))).toThrow(KadenaHeaderError);
    expect(() => base64UrlToHash('abc')).toThrow(KadenaHeaderError);
    const hash = (headers[0] as Buffer).subarray(KADENA_WORK_LENGTH);
    expect(base64UrlToHash(`${hashToBase64Url(hash)}=`).equals(hash)).toBe(true);
  });

  it('the twenty-chain graph is symmetric, three neighbours each', () => {
    for (const [chain, neighbours] of Object.entries(TWENTY_CHAIN_GRAPH)) {
      expect(neighbours).toHaveLength(3);
      for (const n of neighbours) expect(TWENTY_CHAIN_GRAPH[n]).toContain(Number(chain));
    }
  });
});
