import { readFileSync } from 'node:fs';
import { encodeBitcoinHeader } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { addressToScript } from '../bitcoin/address.js';
import { parseBlock } from '../bitcoin/block.js';
import { hashFromRpcHex, hashToRpcHex } from '../bitcoin/bytes.js';
import { sha256d } from '../bitcoin/hash.js';
import { parseHeader } from '../bitcoin/header.js';
import { merkleRoot } from '../bitcoin/merkle.js';
import { NETWORKS } from '../bitcoin/networks.js';
import { type BlockTemplate, parseBlockTemplate, UnsupportedTemplateError } from '../rpc/template.js';
import { buildBlockTemplate } from '../testing/templateBuilder.js';
import { createTemplateJob, type TemplateJobOptions } from './templateJob.js';

/** A real getblocktemplate reply of litecoind 0.21.2 -regtest at the first MWEB height (432). */
const MWEB_TEMPLATE: unknown = JSON.parse(
  readFileSync(new URL('../testing/fixtures/litecoind-regtest-gbt-432.json', import.meta.url), 'utf8'),
);

const POOL_ADDRESS = 'rltc1q6tfup3z3n4vwakeajd4v7dl7y3e2jeuu053d2n';
const payoutScript = addressToScript(POOL_ADDRESS, NETWORKS['litecoin-regtest']);
const options: TemplateJobOptions = {
  id: '1f',
  coin: 'LTC',
  algorithm: 'scrypt',
  payoutScript,
  cleanJobs: true,
  poolTag: '/lodestone/',
  createdAt: 1_700_000_000_000,
};
const en1 = Buffer.from('0a0b0c0d', 'hex');
const en2 = Buffer.from('01020304', 'hex');

/** The header's 80 bytes as a Buffer (the tests compare hex). */
const encodeHeader = (fields: Parameters<typeof encodeBitcoinHeader>[0]) => Buffer.from(encodeBitcoinHeader(fields));

describe('a job from a template', () => {
  it('carries what mining.notify sends', () => {
    const job = createTemplateJob(buildBlockTemplate(), options);
    expect(job).toMatchObject({
      id: '1f',
      coin: 'LTC',
      algorithm: 'scrypt',
      height: 2,
      version: 0x20000000,
      bits: '207fffff',
      curtime: 1795355416,
      mintime: 1795355412,
      coinbaseValue: 5_000_000_000n,
      networkTarget: 0x7fffffn << 232n,
      // A daemon's template: shares are valued at the network's own target.
      valuationTarget: 0x7fffffn << 232n,
      cleanJobs: true,
      extranonceSize: 8,
      merkleBranch: [],
      prevHashNotify: '6cfe68bace2f08433f81ff4812daf9ceb93d41e3a9e93ea1c341d9cc5eb1f1dc',
      createdAt: 1_700_000_000_000,
    });
  });

  it('builds a coinbase with the BIP34 height, the extranonce, the tag, the payout and the witness commitment', () => {
    const job = createTemplateJob(buildBlockTemplate(), options);
    const coinbase = job.coinbase(en1, en2);
    expect(coinbase.toString('hex')).toBe(
      `${job.coinbase1}${en1.toString('hex')}${en2.toString('hex')}${job.coinbase2}`,
    );
    const block = parseBlock(Buffer.from(job.block(en1, en2, job.curtime, 7, job.version), 'hex'));
    const [tx] = block.transactions;
    const input = tx?.inputs[0];
    // scriptSig: OP_2 (height 2), push(8) extranonce, push("/lodestone/").
    expect(input?.script.toString('hex')).toBe(
      `5208${en1.toString('hex')}${en2.toString('hex')}0b${Buffer.from('/lodestone/').toString('hex')}`,
    );
    expect(input?.prevTxid.equals(Buffer.alloc(32))).toBe(true);
    expect(input?.prevIndex).toBe(0xffffffff);
    expect(tx?.outputs).toEqual([
      { value: 5_000_000_000n, script: payoutScript },
      { value: 0n, script: Buffer.from(buildBlockTemplate().defaultWitnessCommitment ?? '', 'hex') },
    ]);
    // BIP141: with a witness commitment the coinbase carries the 32-byte zero witness reserved value.
    expect(tx?.hasWitness).toBe(true);
    expect(input?.witness).toEqual([Buffer.alloc(32)]);
    expect(tx?.txid.equals(sha256d(coinbase))).toBe(true);
  });

  it('carries the fees of the template’s transactions for FPPS, only when it gave every one', () => {
    // litecoind's template at height 432: 1,250,005,530 litoshi of coinbase value, the regtest subsidy
    // of 12.5 LTC (50 halved at 150 and 300) and the fees of its two transactions, 5,530 and 0.
    const template = parseBlockTemplate(MWEB_TEMPLATE);
    expect(createTemplateJob(template, options)).toMatchObject({ coinbaseValue: 1_250_005_530n, fees: 5_530n });
    const [first, ...rest] = template.transactions;
    const { fee: _left, ...withoutFee } = first as NonNullable<typeof first>;
    expect(createTemplateJob({ ...template, transactions: [withoutFee, ...rest] }, options).fees).toBeUndefined();
    expect(createTemplateJob(buildBlockTemplate(), options).fees).toBe(0n);
  });

  it('builds headers whose merkle root commits to the coinbase and the template transactions', () => {
    const template = parseBlockTemplate(MWEB_TEMPLATE);
    const job = createTemplateJob(template, options);
    const header = job.header(en1, en2, 1795355500, 0xdeadbeef, 0x20000000 | 0x2000);
    const coinbaseId = sha256d(job.coinbase(en1, en2));
    const root = merkleRoot([coinbaseId, ...template.transactions.map((tx) => hashFromRpcHex(tx.txid))]);
    expect(Buffer.from(header)).toEqual(
      encodeHeader({
        version: 0x20002000,
        prevHash: hashFromRpcHex(template.previousBlockHash),
        merkleRoot: root,
        time: 1795355500,
        bits: 0x207fffff,
        nonce: 0xdeadbeef,
      }),
    );
    expect(job.merkleBranch).toHaveLength(2);
    expect(job.blockHash(header)).toBe(hashToRpcHex(sha256d(header)));
  });

  it('assembles a Litecoin MWEB block: coinbase, template transactions with the HogEx last, 0x01, MWEB block', () => {
    const template = parseBlockTemplate(MWEB_TEMPLATE);
    expect(template.mweb).toBeDefined();
    const job = createTemplateJob(template, options);
    expect(job.hasMweb).toBe(true);
    const hex = job.block(en1, en2, job.curtime, 1, job.version);
    const block = parseBlock(Buffer.from(hex, 'hex'));
    expect(block.transactions.map((tx) => hashToRpcHex(tx.txid)).slice(1)).toEqual(
      template.transactions.map((tx) => tx.txid),
    );
    expect(block.transactions.at(-1)?.isHogEx).toBe(true);
    expect(block.mweb?.toString('hex')).toBe(template.mweb);
    expect(hex.endsWith(`01${template.mweb}`)).toBe(true);
    expect(parseHeader(block.headerBytes).merkleRoot).toEqual(merkleRoot(block.transactions.map((tx) => tx.txid)));
    expect(block.headerBytes).toEqual(Buffer.from(job.header(en1, en2, job.curtime, 1, job.version)));
  });

  it('refuses inconsistent MWEB templates and wrong extranonce sizes', () => {
    const template = parseBlockTemplate(MWEB_TEMPLATE);
    expect(() => createTemplateJob({ ...template, mweb: undefined } as BlockTemplate, options)).toThrow(
      UnsupportedTemplateError,
    );
    expect(() => createTemplateJob({ ...template, transactions: template.transactions.slice(0, 1) }, options)).toThrow(
      /HogEx/,
    );
    const job = createTemplateJob(buildBlockTemplate(), options);
    expect(() => job.header(en1, Buffer.alloc(3), job.curtime, 0, job.version)).toThrow(RangeError);
  });

  it('refuses a pool tag that would make the coinbase scriptSig longer than 100 bytes', () => {
    expect(() => createTemplateJob(buildBlockTemplate(), { ...options, poolTag: 'x'.repeat(90) })).toThrow(/pool tag/);
  });
});

describe('parsing getblocktemplate', () => {
  it('reads the real litecoind template', () => {
    const t = parseBlockTemplate(MWEB_TEMPLATE);
    expect(t).toMatchObject({ height: 432, bits: '207fffff', coinbaseValue: 1_250_005_530n });
    expect(t.rules).toContain('mweb');
    expect(t.longPollId).toMatch(/^[0-9a-f]{64}\d+$/);
    expect(t.defaultWitnessCommitment?.startsWith('6a24aa21a9ed')).toBe(true);
  });

  it('names the field a malformed reply gets wrong', () => {
    const broken = { ...(MWEB_TEMPLATE as Record<string, unknown>), previousblockhash: 'xyz' };
    expect(() => parseBlockTemplate(broken)).toThrow(/previousblockhash is not 32 bytes of hex/);
    expect(() => parseBlockTemplate(null)).toThrow(/template is not an object/);
    expect(() => parseBlockTemplate({ ...(MWEB_TEMPLATE as object), transactions: [{ data: 'zz' }] })).toThrow(
      /transactions\[0\]\.data/,
    );
  });

  it('refuses rules and coinbase requirements it does not support', () => {
    expect(() => parseBlockTemplate({ ...(MWEB_TEMPLATE as object), rules: ['!signet'] })).toThrow(
      UnsupportedTemplateError,
    );
    expect(() => parseBlockTemplate({ ...(MWEB_TEMPLATE as object), masternode: [{ payee: 'x', amount: 1 }] })).toThrow(
      /masternode/,
    );
  });
});
