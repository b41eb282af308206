import { readFileSync } from 'node:fs';
import { kaspaBlockHash, kaspaPowInput, kheavyhash } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../kaspa/json.js';
import { toPowHeader } from '../kaspa/kaspaJob.js';
import { KaspaShape, readRawHeader } from '../kaspa/wire.js';
import { headerHash, merkleRoot, targetFromBits, transactionHash } from './kaspaHashing.js';

/**
 * Real blocks: three lines of kaspanet/rusty-kaspa
 * testing/integration/testdata/dags_for_json_tests/goref-1060-tx-265-blocks/blocks.json.gz at commit
 * 593399eb0187764c11f7f5c3729ae63d4c8e6505 (a DAG made by the Go reference node, written in the RPC JSON
 * shape): the devnet genesis, block 2 (header version 2, a version-1 coinbase) and block 208 (six parent
 * levels, a version-1 coinbase and two version-0 transactions with inputs). Each carries its hash and
 * hashMerkleRoot, which the stand-in's own hashing and packages/pow must both reproduce. All 266 blocks
 * of the file were checked the same way when this fixture was cut.
 */
const BLOCKS = readFileSync(new URL('./fixtures/kaspa/goref-blocks.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => parseJsonExact(line) as { header: Record<string, unknown> & { hash: string }; transactions: never[] });

describe('stand-in kaspad hashing against real blocks (rusty-kaspa goref DAG)', () => {
  it.each(BLOCKS.map((b, i) => [i, b] as const))('block %i: header hash and merkle root', (_i, block) => {
    const fields = block.header as unknown as Parameters<typeof headerHash>[0];
    expect(headerHash(fields)).toBe(block.header.hash);
    expect(merkleRoot(block.transactions.map((tx) => transactionHash(tx)))).toBe(block.header.hashMerkleRoot);
    // packages/pow, through the pool's own reader, agrees
    const header = readRawHeader(new KaspaShape('test'), block.header);
    expect(Buffer.from(kaspaBlockHash(toPowHeader(header))).toString('hex')).toBe(block.header.hash);
  });

  it('the pre-PoW hash is the header hash with timestamp and nonce 0', () => {
    const header = BLOCKS[2]?.header as unknown as Parameters<typeof headerHash>[0];
    expect(headerHash(header, true)).toBe(headerHash({ ...header, timestamp: 0, nonce: 0 }));
    expect(headerHash(header, true)).not.toBe(headerHash(header));
  });

  it('testnet genesis (consensus/core/src/config/genesis.rs): own pre-PoW hash, kHeavyHash meets its bits', () => {
    const header = {
      version: 0,
      parentsByLevel: [],
      hashMerkleRoot: '17341408a5724556504df4d6cf515cbfbb220430dc451c743c22d5e911720c2a',
      acceptedIdMerkleRoot: '0'.repeat(64),
      utxoCommitment: '544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0',
      timestamp: 0x17c5f62fbb6n,
      bits: 0x1e7fffff,
      nonce: 0x14582n,
      daaScore: 0n,
      blueScore: 0n,
      blueWork: '0',
      pruningPoint: '0'.repeat(64),
    };
    expect(headerHash(header)).toBe('f896a3034873be1739fc4359236899fd3d65d2bc94f9780df0d0da3eb1cc4370');
    const pow = kheavyhash(kaspaPowInput(Buffer.from(headerHash(header, true), 'hex'), header.timestamp, header.nonce));
    const value = BigInt(`0x${Buffer.from(pow).reverse().toString('hex')}`);
    expect(value <= targetFromBits(header.bits)).toBe(true);
    expect(value <= targetFromBits(header.bits) >> 17n).toBe(false);
  });

  it('merkle root: one leaf is the leaf, an odd last node pairs with zeros, none is zero', () => {
    const a = 'aa'.repeat(32);
    expect(merkleRoot([a])).toBe(a);
    expect(merkleRoot([])).toBe('0'.repeat(64));
    expect(merkleRoot([a, a, a])).not.toBe(merkleRoot([a, a]));
  });
});
