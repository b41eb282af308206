/**
 * Dash's special transactions and CbTx payload against Dash's published records (dashpay/docs-core,
 * see testing/fixtures/README.md): the CbTx example of docs/reference/transactions-special-transactions.md
 * (mainnet block 1989850, with its txid) and the raw testnet block 917286 of
 * docs/api/remote-procedure-calls-blockchain.md (with its hash and merkle root).
 */
import { readFileSync } from 'node:fs';
import { POW } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { hashToRpcHex } from '../bitcoin/bytes.js';
import { sha256d } from '../bitcoin/hash.js';
import { ParseError } from '../bitcoin/reader.js';
import { parseCbTx, readCbTxPrefix, serializeCbTx } from './cbtx.js';
import {
  extraPayloadBytes,
  hasExtraPayload,
  specialTxVersionField,
  splitVersionField,
  TRANSACTION_COINBASE,
} from './specialTx.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../testing/fixtures/${name}`, import.meta.url), 'utf8'));

const CBTX_EXAMPLE = fixture('dash-mainnet-cbtx-1989850.json') as {
  txid: string;
  hex: string;
  extraPayload: string;
  cbTx: {
    version: number;
    height: number;
    merkleRootMNList: string;
    merkleRootQuorums: string;
    bestCLSignature: string;
  };
};
const BLOCK_917286 = fixture('dash-testnet-block-917286.json') as {
  hash: string;
  merkleroot: string;
  hex: string;
  cbTx: { height: number; merkleRootMNList: string; creditPoolBalance: number };
};

describe('DIP2 special transaction framing', () => {
  it('writes version 3, type 5 as the 32-bit field 0x00050003 (bytes 03 00 05 00)', () => {
    const field = specialTxVersionField(TRANSACTION_COINBASE);
    expect(field).toBe(0x00050003);
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32LE(field);
    expect(bytes.toString('hex')).toBe(CBTX_EXAMPLE.hex.slice(0, 8));
    expect(splitVersionField(field)).toEqual({ version: 3, type: 5 });
    expect(hasExtraPayload(field)).toBe(true);
    expect(hasExtraPayload(1)).toBe(false);
    expect(hasExtraPayload(specialTxVersionField(0))).toBe(false);
  });

  it('the real coinbase is its legacy part, then CompactSize(175) and the payload; its txid covers all of it', () => {
    const raw = Buffer.from(CBTX_EXAMPLE.hex, 'hex');
    const payload = Buffer.from(CBTX_EXAMPLE.extraPayload, 'hex');
    expect(payload).toHaveLength(175);
    const tail = extraPayloadBytes(payload);
    expect(tail[0]).toBe(0xaf);
    expect(raw.subarray(raw.length - tail.length)).toEqual(tail);
    expect(hashToRpcHex(sha256d(raw))).toBe(CBTX_EXAMPLE.txid);
    // Without the payload the hash is another one: the payload is part of the txid.
    expect(hashToRpcHex(sha256d(raw.subarray(0, raw.length - tail.length)))).not.toBe(CBTX_EXAMPLE.txid);
  });
});

describe('CbTx payload', () => {
  it('decodes the real version 3 payload as decoderawtransaction shows it', () => {
    const cbtx = parseCbTx(Buffer.from(CBTX_EXAMPLE.extraPayload, 'hex'));
    expect(cbtx.version).toBe(3);
    expect(cbtx.height).toBe(CBTX_EXAMPLE.cbTx.height);
    expect(hashToRpcHex(cbtx.merkleRootMNList)).toBe(CBTX_EXAMPLE.cbTx.merkleRootMNList);
    expect(hashToRpcHex(cbtx.merkleRootQuorums as Buffer)).toBe(CBTX_EXAMPLE.cbTx.merkleRootQuorums);
    expect(cbtx.bestCLHeightDiff).toBe(0);
    expect(cbtx.bestCLSignature?.toString('hex')).toBe(CBTX_EXAMPLE.cbTx.bestCLSignature);
    expect(cbtx.creditPoolBalance).toBe(0n);
    expect(serializeCbTx(cbtx).toString('hex')).toBe(CBTX_EXAMPLE.extraPayload);
  });

  it('decodes the real block 917286 payload, credit pool balance included', () => {
    // The block's only transaction is its coinbase; its payload is the last 175 bytes.
    const payload = Buffer.from(BLOCK_917286.hex, 'hex').subarray(-175);
    const cbtx = parseCbTx(payload);
    expect(cbtx).toMatchObject({ version: 3, height: BLOCK_917286.cbTx.height });
    expect(hashToRpcHex(cbtx.merkleRootMNList)).toBe(BLOCK_917286.cbTx.merkleRootMNList);
    expect(cbtx.creditPoolBalance).toBe(BigInt(Math.round(BLOCK_917286.cbTx.creditPoolBalance * 1e8)));
    expect(serializeCbTx(cbtx)).toEqual(payload);
  });

  it('decodes versions 1 and 2 (the mainnet template 1911041 carries a version 2 payload)', () => {
    const v2 = fixture('dash-mainnet-gbt-1911041.json').coinbase_payload as string;
    const cbtx = parseCbTx(Buffer.from(v2, 'hex'));
    expect(cbtx).toMatchObject({ version: 2, height: 1911041 });
    expect(serializeCbTx(cbtx).toString('hex')).toBe(v2);
    const v1 = serializeCbTx({ version: 1, height: 7, merkleRootMNList: Buffer.alloc(32, 1) });
    expect(v1).toHaveLength(38);
    expect(parseCbTx(v1)).toEqual({ version: 1, height: 7, merkleRootMNList: Buffer.alloc(32, 1) });
  });

  it('refuses a truncated, padded, version 0 or unknown-version payload', () => {
    const good = Buffer.from(CBTX_EXAMPLE.extraPayload, 'hex');
    expect(() => parseCbTx(good.subarray(0, good.length - 1))).toThrow(ParseError);
    expect(() => parseCbTx(Buffer.concat([good, Buffer.from([0])]))).toThrow(/unexpected bytes/);
    const v0 = Buffer.from(good);
    v0.writeUInt16LE(0, 0);
    expect(() => parseCbTx(v0)).toThrow(/version 0/);
    const v9 = Buffer.from(good);
    v9.writeUInt16LE(9, 0);
    expect(() => parseCbTx(v9)).toThrow(/version 9/);
    expect(readCbTxPrefix(v9)).toEqual({ version: 9, height: 1989850 });
  });
});

describe('the real testnet block 917286', () => {
  it('hashes with X11 to its published hash, which meets its bits', () => {
    const header = Buffer.from(BLOCK_917286.hex, 'hex').subarray(0, 80);
    const hash = POW.x11.hash(header);
    expect(hashToRpcHex(hash)).toBe(BLOCK_917286.hash);
    const bits = header.readUInt32LE(72);
    const target = BigInt(bits & 0x7fffff) << BigInt(8 * ((bits >>> 24) - 3));
    expect(POW.x11.hashValue(hash) <= target).toBe(true);
  });

  it('has the coinbase txid (sha256d over the full special transaction) as its merkle root', () => {
    const bytes = Buffer.from(BLOCK_917286.hex, 'hex');
    expect(bytes[80]).toBe(1);
    const coinbase = bytes.subarray(81);
    expect(hashToRpcHex(sha256d(coinbase))).toBe(BLOCK_917286.merkleroot);
    expect(hashToRpcHex(bytes.subarray(36, 68))).toBe(BLOCK_917286.merkleroot);
  });
});
