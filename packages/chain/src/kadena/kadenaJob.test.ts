import { blake2sWork, KADENA_WORK_LENGTH, kadenaNonce, readUint256LE } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { realMainnetHeaders } from '../testing/chainwebNode.js';
import { hashToBase64Url, KadenaHeaderError, parseKadenaHeader } from './header.js';
import { createKadenaJob, KADENA_WORK_REPLY_LENGTH, parseKadenaWork } from './kadenaJob.js';

const real = realMainnetHeaders()[0] as Buffer;
const realWork = real.subarray(0, KADENA_WORK_LENGTH);
const fields = parseKadenaHeader(realWork);

/** A work reply as the node sends it: chain id ‖ target ‖ the header with nonce 0. */
function reply(chainId = fields.chainId, target = fields.target, header: Uint8Array = realWork): Buffer {
  const out = Buffer.alloc(KADENA_WORK_REPLY_LENGTH);
  out.writeUInt32LE(chainId, 0);
  for (let i = 0; i < 32; i++) out[4 + i] = Number((target >> BigInt(8 * i)) & 0xffn);
  Buffer.from(header).copy(out, 36);
  out.writeBigUInt64LE(0n, 36 + 278);
  return out;
}

let ids = 0;
const job = () =>
  createKadenaJob({
    id: 'a1',
    work: parseKadenaWork(reply()),
    node: 'http://node:1848',
    version: 'mainnet01',
    cleanJobs: true,
    createdAt: 1,
    nextId: () => `b${++ids}`,
    now: () => 2,
  });

describe('Kadena work replies', () => {
  it('reads chain id, target and the 286-byte header', () => {
    const work = parseKadenaWork(reply());
    expect(work.chainId).toBe(5);
    expect(work.target).toBe(fields.target);
    expect(work.header).toHaveLength(KADENA_WORK_LENGTH);
  });

  it('refuses a reply of another length, or whose chain or target is not its header’s', () => {
    expect(() => parseKadenaWork(reply().subarray(1))).toThrow(/321 bytes; chainweb sends 322/);
    expect(() => parseKadenaWork(reply(6))).toThrow(/chain 6 but its header is for chain 5/);
    expect(() => parseKadenaWork(reply(5, fields.target - 1n))).toThrow(KadenaHeaderError);
  });
});

describe('KadenaJob', () => {
  it('carries what the stratum dialect and PPS need, from the header', () => {
    const j = job();
    expect(j).toMatchObject({
      id: 'a1',
      algorithm: 'blake2s',
      coin: 'KDA',
      chainId: 5,
      height: 2_111_409,
      networkTarget: fields.target,
      coinbaseValue: 1_075_097_500_000n,
      parentHash: hashToBase64Url(fields.parent),
      payloadHash: hashToBase64Url(fields.payloadHash),
      creationTime: fields.creationTime,
      cleanJobs: true,
    });
    expect(kadenaNonce(j.header)).toBe(0n);
  });

  it('solved(nonce) writes the nonce at 278 and gives back the real block (its PoW meets the target)', () => {
    const j = job();
    const solved = j.solved(fields.nonce);
    expect(Buffer.from(solved).equals(realWork)).toBe(true);
    expect(readUint256LE(blake2sWork(solved)) <= j.networkTarget).toBe(true);
    expect(kadenaNonce(j.header)).toBe(0n);
    expect(() => j.solved(1n << 64n)).toThrow(RangeError);
  });

  it('withCreationTime re-issues the same work with another time and a new id, not clean', () => {
    const j = job();
    const later = j.withCreationTime(fields.creationTime + 1_000_000n);
    expect(later.id).not.toBe(j.id);
    expect(later).toMatchObject({ cleanJobs: false, createdAt: 2, payloadHash: j.payloadHash, height: j.height });
    expect(parseKadenaHeader(later.header).creationTime).toBe(fields.creationTime + 1_000_000n);
    expect(later.creationTime).toBe(fields.creationTime + 1_000_000n);
    const diff = [...later.header].flatMap((b, i) => (b === j.header[i] ? [] : [i]));
    expect(diff.every((i) => i >= 8 && i < 16)).toBe(true);
    expect(parseKadenaHeader(j.header).creationTime).toBe(fields.creationTime);
  });
});
