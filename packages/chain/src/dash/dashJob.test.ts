/**
 * A job from a real Dash getblocktemplate: the mainnet template at height 1911041 (CbTx version 2, one
 * masternode payee, 14 transactions) and the testnet template at 917411 (CbTx version 3, the v20
 * platform share as an OP_RETURN payee, three quorum commitment special transactions), both from
 * dashpay/docs-core docs/api/remote-procedure-calls-mining.md (testing/fixtures/README.md). The coinbase
 * and block are read back with the dashd stand-in's own decoder, not with the builder's code.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashToRpcHex } from '../bitcoin/bytes.js';
import { ByteReader } from '../bitcoin/reader.js';
import { createTemplateJob, type TemplateJobOptions } from '../jobs/templateJob.js';
import { RpcError } from '../rpc/errors.js';
import { parseBlockTemplate, UnsupportedTemplateError } from '../rpc/template.js';
import { decodeDashBlock, merkleRootOf, readDashTx } from '../testing/dashBlock.js';
import { parseCbTx } from './cbtx.js';
import { DASH_TEMPLATE_DIALECT } from './template.js';

type RawTemplate = Record<string, unknown> & {
  coinbasevalue: number;
  masternode: { payee: string; script: string; amount: number }[];
  superblock: { payee: string; script: string; amount: number }[];
  coinbase_payload: string;
  transactions: { data: string; hash: string }[];
};
const load = (name: string): RawTemplate =>
  JSON.parse(readFileSync(new URL(`../testing/fixtures/${name}`, import.meta.url), 'utf8'));
const MAINNET_1911041 = load('dash-mainnet-gbt-1911041.json');
const TESTNET_917411 = load('dash-testnet-gbt-917411.json');

// A P2PKH script of the pool (the testnet payee yeRZBWYfeNE4yVUHV4ZLs83Ppn9aMRH57A's, for the test).
const payoutScript = Buffer.from('76a914c69a0bda7daaae481be8def95e5f347a1d00a4b488ac', 'hex');
const options: TemplateJobOptions = {
  id: '2a',
  coin: 'DASH',
  algorithm: 'x11',
  payoutScript,
  cleanJobs: true,
  poolTag: '/lodestone/',
};
const en1 = Buffer.from('0a0b0c0d', 'hex');
const en2 = Buffer.from('01020304', 'hex');

const parse = (raw: unknown) => parseBlockTemplate(raw, 'dashd', DASH_TEMPLATE_DIALECT);
const variant = (base: RawTemplate, changes: Record<string, unknown>) => ({ ...structuredClone(base), ...changes });

describe('a real Dash template', () => {
  it('is refused by the plain bitcoin-family reader, as before', () => {
    expect(() => parseBlockTemplate(MAINNET_1911041)).toThrow(UnsupportedTemplateError);
  });

  it('is read by the Dash dialect: payees from the scripts, the payload as a version 3 type 5 coinbase', () => {
    const template = parse(TESTNET_917411);
    expect(template.coinbase).toEqual({
      payees: [
        { kind: 'masternode', value: 376379796n, script: '6a' },
        { kind: 'masternode', value: 627299661n, script: '76a914c69a0bda7daaae481be8def95e5f347a1d00a4b488ac' },
      ],
      txVersion: 0x00050003,
      extraPayload: TESTNET_917411.coinbase_payload,
    });
  });

  for (const [name, raw] of [
    ['mainnet 1911041', MAINNET_1911041],
    ['testnet 917411', TESTNET_917411],
  ] as const) {
    it(`${name}: the coinbase pays the pool coinbasevalue less the payees, then each payee, and carries the payload`, () => {
      const job = createTemplateJob(parse(raw), options);
      const payees = raw.masternode.reduce((sum, p) => sum + BigInt(p.amount), 0n);
      expect(job.coinbaseValue).toBe(BigInt(raw.coinbasevalue) - payees);

      const coinbase = readDashTx(new ByteReader(job.coinbase(en1, en2)));
      expect(coinbase).toMatchObject({ version: 3, type: 5, lockTime: 0 });
      expect(coinbase.payload?.toString('hex')).toBe(raw.coinbase_payload);
      expect(coinbase.outputs.map((o) => [o.value, o.script.toString('hex')])).toEqual([
        [job.coinbaseValue, payoutScript.toString('hex')],
        ...raw.masternode.map((p) => [BigInt(p.amount), p.script]),
      ]);
      const total = coinbase.outputs.reduce((sum, o) => sum + o.value, 0n);
      expect(total).toBe(BigInt(raw.coinbasevalue));
      // Masternodes take their part of the fees too: FPPS has no fee figure to swap for the average.
      expect(job.fees).toBeUndefined();
      expect(parseCbTx(coinbase.payload as Buffer).height).toBe(raw.height);
    });

    it(`${name}: the block carries the special coinbase and the template's transactions under the right merkle root`, () => {
      const job = createTemplateJob(parse(raw), options);
      const hex = job.block(en1, en2, job.curtime, 7, job.version);
      const block = decodeDashBlock(Buffer.from(hex, 'hex'));
      expect(block.transactions).toHaveLength(1 + raw.transactions.length);
      // The real transactions hash to the template's txids (special ones, QcTx type 6, included).
      expect(block.transactions.slice(1).map((tx) => hashToRpcHex(tx.txid))).toEqual(
        raw.transactions.map((t) => t.hash),
      );
      expect(merkleRootOf(block.transactions.map((tx) => tx.txid))).toEqual(block.merkleRoot);
      expect(block.previousBlockHash).toBe(raw.previousblockhash);
      expect(block.transactions[0]?.raw).toEqual(job.coinbase(en1, en2));
      // The header stratum miners hash is the block's header.
      expect(Buffer.from(job.header(en1, en2, job.curtime, 7, job.version))).toEqual(block.headerBytes);
    });
  }

  it('takes superblock payments out of the pool output too (coinbasevalue includes them)', () => {
    const superblock = [{ payee: 'XsuperblockPayee', script: `76a914${'11'.repeat(20)}88ac`, amount: 1_000_000 }];
    const raw = variant(MAINNET_1911041, { superblock, coinbasevalue: MAINNET_1911041.coinbasevalue + 1_000_000 });
    const job = createTemplateJob(parse(raw), options);
    expect(job.coinbaseValue).toBe(230992199n - 133282498n);
    const coinbase = readDashTx(new ByteReader(job.coinbase(en1, en2)));
    expect(coinbase.outputs.map((o) => o.value)).toEqual([230992199n - 133282498n, 133282498n, 1_000_000n]);
    expect(coinbase.outputs[2]?.script.toString('hex')).toBe(superblock[0]?.script);
  });

  it('before DIP3 (no payload) the coinbase stays a version 1 transaction with the payees', () => {
    const job = createTemplateJob(parse(variant(MAINNET_1911041, { coinbase_payload: '' })), options);
    const coinbase = readDashTx(new ByteReader(job.coinbase(en1, en2)));
    expect(coinbase).toMatchObject({ version: 1, type: 0 });
    expect(coinbase.payload).toBeUndefined();
    expect(coinbase.outputs).toHaveLength(2);
  });
});

describe('a malformed Dash template is refused, so no job is made', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['payees above coinbasevalue', { coinbasevalue: 133282497 }, /nothing is left for the pool/],
    [
      'a payee without a script',
      { masternode: [{ payee: 'Xf1yruVSvW6arszkDrbN95c6hSxfhCAwtU', amount: 1 }] },
      /has no script/,
    ],
    [
      'a payee script that is not hex',
      { masternode: [{ payee: '', script: 'zz', amount: 1 }] },
      /masternode\[0\]\.script/,
    ],
    ['a negative amount', { masternode: [{ payee: '', script: '6a', amount: -1 }] }, /masternode\[0\]\.amount/],
    ['masternode not a list', { masternode: { payee: '', script: '6a', amount: 1 } }, /masternode is not an array/],
    ['superblock entries not objects', { superblock: ['6a'] }, /superblock\[0\] is not an object/],
    [
      'a payload for another height',
      { coinbase_payload: TESTNET_917411.coinbase_payload },
      /for height 917411, the template for height 1911041/,
    ],
    ['a truncated payload', { coinbase_payload: MAINNET_1911041.coinbase_payload.slice(0, -2) }, /not a CbTx/],
    ['a padded payload', { coinbase_payload: `${MAINNET_1911041.coinbase_payload}00` }, /not a CbTx/],
    ['a version 0 payload', { coinbase_payload: `0000${MAINNET_1911041.coinbase_payload.slice(4)}` }, /not a CbTx/],
    ['a payload that is not hex', { coinbase_payload: 'xyz' }, /coinbase_payload/],
    ['coinbasetxn', { coinbasetxn: { data: '00' } }, /coinbasetxn/],
  ];
  for (const [what, change, message] of cases) {
    it(what, () => {
      let error: unknown;
      try {
        createTemplateJob(parse(variant(MAINNET_1911041, change)), options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(Error);
      expect(error instanceof UnsupportedTemplateError || error instanceof RpcError).toBe(true);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('a newer CbTx version is carried as the node gives it once its height checks out', () => {
    const payload = `0900${MAINNET_1911041.coinbase_payload.slice(4)}ff`;
    const template = parse(variant(MAINNET_1911041, { coinbase_payload: payload }));
    expect(template.coinbase?.extraPayload).toBe(payload);
  });
});
