import { readFileSync } from 'node:fs';
import { kaspaTargetFromBits } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/errors.js';
import { headerHash } from '../testing/kaspaHashing.js';
import { payToAddressScript, readCoinbasePayload, writeCoinbasePayload } from './coinbase.js';
import { parseJsonExact, stringifyJsonExact } from './json.js';
import { createKaspaJob } from './kaspaJob.js';
import { readBlockTemplate, readSubmitReport } from './wire.js';

// Block 2 of rusty-kaspa's goref DAG (see ../testing/kaspaHashing.test.ts for the source and commit),
// served as a template: its coinbase payload pays subsidy 0x0a3e9ab8 to a 32-byte Schnorr key script.
const [, , block208] = readFileSync(new URL('../testing/fixtures/kaspa/goref-blocks.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n');
const templateText = `{"block":${block208},"isSynced":true}`;

describe('Kaspa template and job', () => {
  const template = readBlockTemplate(parseJsonExact(templateText));
  const job = createKaspaJob(template.block, { id: '1', cleanJobs: true, createdAt: 5 });
  const raw = JSON.parse(block208 as string) as { header: Record<string, unknown> & { hash: string; nonce: number } };

  it('reads the template header and builds the job fields from it', () => {
    expect(template.isSynced).toBe(true);
    expect(template.block.header.parentsByLevel).toHaveLength(6);
    expect(job.algorithm).toBe('kheavyhash');
    expect(job.coin).toBe('KAS');
    expect(job.daaScore).toBe(template.block.header.daaScore);
    expect(job.height).toBe(Number(template.block.header.daaScore));
    expect(job.timestamp).toBe(BigInt(raw.header.timestamp as number));
    expect(job.networkTarget).toBe(kaspaTargetFromBits(raw.header.bits as number));
  });

  it('pre-PoW hash and block hash agree with the stand-in hashing and the real block hash', () => {
    const fields = raw.header as unknown as Parameters<typeof headerHash>[0];
    expect(Buffer.from(job.prePowHash).toString('hex')).toBe(headerHash(fields, true));
    expect(job.blockHash(BigInt(raw.header.nonce))).toBe(raw.header.hash);
    const input = job.powInput(0x0102030405060708n);
    expect(Buffer.from(input.subarray(0, 32))).toEqual(Buffer.from(job.prePowHash));
    expect(Buffer.from(input.subarray(72)).toString('hex')).toBe('0807060504030201');
  });

  it('coinbaseValue is the subsidy in the coinbase payload; the pay script is read from it', () => {
    const payload = readCoinbasePayload(template.block.transactions[0]?.payload as string);
    expect(job.coinbaseValue).toBe(payload.subsidy);
    expect(job.coinbaseValue).toBeGreaterThan(0n);
    expect(job.payScript).toBe(payload.scriptPublicKey);
    expect(job.payScript).toMatch(/^000020[0-9a-f]{64}ac$/);
  });

  it('block(nonce) is the template block with the nonce set, written with the u64 exact', () => {
    const nonce = 18446744073709551557n;
    const block = job.block(nonce);
    const text = stringifyJsonExact({ block, allowNonDAABlocks: false });
    expect(text).toContain('"nonce":18446744073709551557');
    const back = parseJsonExact(text) as { block: { header: Record<string, unknown>; transactions: unknown[] } };
    expect(back.block.header.hashMerkleRoot).toBe(raw.header.hashMerkleRoot);
    expect(back.block.transactions).toHaveLength(3);
    // the template itself is untouched
    expect(job.block(1n).header).toMatchObject({ nonce: 1n });
    expect((template.block.raw.header as { nonce: unknown }).nonce).toBe(raw.header.nonce);
  });

  it('refuses malformed templates with the field named', () => {
    const broken = JSON.parse(templateText);
    broken.block.header.blueWork = 'zz';
    expect(() => readBlockTemplate(broken)).toThrow(/blueWork/);
    broken.block.header.blueWork = '01';
    broken.block.header.daaScore = -1;
    expect(() => readBlockTemplate(broken)).toThrow(RpcError);
    broken.block.header.daaScore = 1;
    expect(() => readBlockTemplate({ block: { ...broken.block, transactions: [] }, isSynced: true })).toThrow(
      /coinbase/,
    );
    expect(() => readBlockTemplate({ isSynced: true })).toThrow(/block is not an object/);
  });

  it('reads submit reports', () => {
    expect(readSubmitReport({ report: { type: 'success' } })).toEqual({ type: 'success' });
    expect(readSubmitReport({ report: { type: 'reject', reason: 'blockInvalid' } })).toEqual({
      type: 'reject',
      reason: 'blockInvalid',
    });
    expect(() => readSubmitReport({ report: { type: 'maybe' } })).toThrow(/neither/);
  });
});

describe('Kaspa pay scripts and coinbase payloads', () => {
  it('pays an address with its standard script (crypto/addresses test vectors)', () => {
    // rusty-kaspa crypto/addresses/src/lib.rs: this mainnet address holds the 32-byte key 5fff3c4d…5922
    expect(payToAddressScript('kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyqh70xmfj')).toBe(
      '0000205fff3c4da18f45adcdd499e44611e9fff148ba69db3c4ea2ddd955fc46a59522ac',
    );
    expect(payToAddressScript('kaspatest:qyqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhe837j2d')).toBe(
      `000021${'00'.repeat(33)}ab`,
    );
    expect(() => payToAddressScript('kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4l')).toThrow(
      /checksum/,
    );
  });

  it('reads and writes payloads', () => {
    const payload = {
      blueScore: 9007199254740993n,
      subsidy: 1_000_000_000n,
      scriptPublicKey: `000020${'ab'.repeat(32)}ac`,
      extraData: new TextEncoder().encode('1.0.0/lodestone'),
    };
    const hex = writeCoinbasePayload(payload);
    expect(readCoinbasePayload(hex)).toEqual(payload);
    expect(() => readCoinbasePayload(hex.slice(0, 30))).toThrow(RangeError);
  });
});
