import { ckbBlockHash, ckbHash, ckbPowHash, ckbPowMessage, eaglesong, encodeCkbRawHeader } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import blocks from './fixtures/aggron-blocks-1-9.json' with { type: 'json' };
import genesisDepGroup from './fixtures/aggron-genesis-dep-group-tx.json' with { type: 'json' };
import mainnet from './fixtures/mainnet-block-76245.json' with { type: 'json' };
import { cbmtRoot, extraHash, proposalsHash, transactionHashes, transactionsRoot, unclesHash } from './hashes.js';
import { headerHash, parseBlock, parseTransaction, rawHeaderOf } from './parse.js';
import { ckbTargetFromCompact } from './target.js';
import { bytesToCkbHex, parseCkbUint32 } from './uint.js';

const hex = bytesToCkbHex;

describe('CKB block hashes against real blocks (nervosnetwork/ckb util/rich-indexer test data, fixtures/README.md)', () => {
  it.each(blocks.map((b) => [b.header.number, b] as const))(
    'block %s: tx hashes, transactions_root, proposals_hash, extra_hash (uncles) and block hash',
    (_number, json) => {
      const block = parseBlock(json);
      const hashes = block.transactions.map((tx) => transactionHashes(tx));
      expect(hashes.map((h) => h.hash)).toEqual(json.transactions.map((tx) => tx.hash));
      expect(hex(transactionsRoot(hashes))).toBe(json.header.transactions_root);
      expect(hex(proposalsHash(block.proposals))).toBe(json.header.proposals_hash);
      const uncleHashes = block.uncles.map((u) => headerHash(u.header));
      expect(uncleHashes).toEqual(json.uncles.map((u) => u.header.hash));
      expect(hex(extraHash(unclesHash(uncleHashes), block.extension))).toBe(json.header.extra_hash);
      expect(headerHash(block.header)).toBe(json.header.hash);

      // These test-chain nonces are not Eaglesong solutions (the fixture chain was not mined with
      // Eaglesong); mainnet block 76245 below is the proof-of-work vector.
      expect(parseCkbUint32(json.header.compact_target, 'compact_target')).toBe(0x1e015555);
    },
  );

  it('mainnet block 76245 (RFC 0019): hashes, roots and Eaglesong proof of work of the block and its uncle', () => {
    const block = parseBlock(mainnet);
    const [cellbase] = block.transactions.map((tx) => transactionHashes(tx));
    expect(cellbase?.hash).toBe(mainnet.transactions[0]?.hash);
    expect(hex(transactionsRoot(cellbase ? [cellbase] : []))).toBe(mainnet.header.transactions_root);
    const uncleHashes = block.uncles.map((u) => headerHash(u.header));
    expect(uncleHashes).toEqual([mainnet.uncles[0]?.header.hash]);
    expect(hex(extraHash(unclesHash(uncleHashes), undefined))).toBe(mainnet.header.extra_hash);
    expect(headerHash(block.header)).toBe(mainnet.header.hash);
    for (const header of [block.header, ...block.uncles.map((u) => u.header)]) {
      const { raw, nonce } = rawHeaderOf(header);
      const target = ckbTargetFromCompact(raw.compactTarget);
      const powHash = ckbPowHash(encodeCkbRawHeader(raw));
      expect(BigInt(hex(eaglesong(ckbPowMessage(powHash, nonce)))) <= target).toBe(true);
      expect(BigInt(hex(eaglesong(ckbPowMessage(powHash, nonce + 1n)))) <= target).toBe(false);
      expect(hex(ckbBlockHash(encodeCkbRawHeader(raw), nonce))).toBe(headerHash(header));
    }
  });

  it('hashes the genesis dep group transaction (cell deps, a type script, cell data)', () => {
    const tx = parseTransaction(genesisDepGroup.transaction, 'tx');
    expect(transactionHashes(tx).hash).toBe(genesisDepGroup.transaction.hash);
  });
});

describe('proposals and uncles hashes (util/gen-types/src/extension/tests/calc_hash.rs)', () => {
  it('proposals [1;10], [2;10] hash to 0xd1670e…; none to zero', () => {
    const ids = [`0x${'01'.repeat(10)}`, `0x${'02'.repeat(10)}`];
    expect(hex(proposalsHash(ids))).toBe('0xd1670e45af1deb9cc00951d71c09ce80932e7ddf9fb151d744436bd04ac4a562');
    expect(hex(proposalsHash([]))).toBe(`0x${'00'.repeat(32)}`);
  });

  it('the two uncles of the test hash to 0x0135d0…', () => {
    const common = {
      version: '0x0',
      timestamp: '0x5cd2b117',
      number: '0x400',
      epoch: '0x7080018000001',
      parent_hash: '0x8381df265c9442d5c27559b167892c5a6a8322871112d3cc8ef45222c6624831',
      transactions_root: '0x12214693b8bd5c3d8f96e270dc8fe32b1702bd97630a9eab53a69793e6bc893f',
      extra_hash: `0x${'00'.repeat(32)}`,
      dao: '0xb54bdd7f6be90000bb52f392d41cd70024f7ef29b437000000febffacf030000',
    };
    const uncle1 = headerHash({
      ...common,
      compact_target: '0x1e083126',
      proposals_hash: '0xd1670e45af1deb9cc00951d71c09ce80932e7ddf9fb151d744436bd04ac4a562',
      nonce: '0x5ff1389af870654311a2bee61237',
    });
    const uncle2 = headerHash({
      ...common,
      compact_target: '0x20010000',
      timestamp: '0x5cd21a16',
      proposals_hash: `0x${'00'.repeat(32)}`,
      nonce: '0x2f392d41cd70024f',
    });
    expect(hex(unclesHash([uncle1, uncle2]))).toBe(
      '0x0135d01f169a870bd9c92b2b37aecfa0fbfb7c1862cc176e03bb525fab0649d9',
    );
  });

  it('extra_hash with an extension is ckbhash(uncles hash ‖ ckbhash(extension)) (util/types/src/core/views.rs)', () => {
    const uncles = unclesHash([]);
    const extension = `0x${'ab'.repeat(32)}`;
    const expected = ckbHash(Uint8Array.from([...uncles, ...ckbHash(Buffer.from('ab'.repeat(32), 'hex'))]));
    expect(extraHash(uncles, extension)).toEqual(expected);
    expect(extraHash(uncles, undefined)).toEqual(uncles);
  });
});

describe('cbmtRoot (RFC 0006 complete binary merkle tree)', () => {
  const leaf = (n: number) => new Uint8Array(32).fill(n);
  const merge = (a: Uint8Array, b: Uint8Array) => ckbHash(Uint8Array.from([...a, ...b]));

  it('is zero for no leaves and the leaf itself for one', () => {
    expect(cbmtRoot([])).toEqual(new Uint8Array(32));
    expect(cbmtRoot([leaf(7)])).toEqual(leaf(7));
  });

  it('pairs from the right: three leaves give merge(merge(L1, L2), L0)', () => {
    expect(cbmtRoot([leaf(0), leaf(1), leaf(2)])).toEqual(merge(merge(leaf(1), leaf(2)), leaf(0)));
  });

  it('five leaves follow the array layout (node i = merge(2i+1, 2i+2))', () => {
    const [l0, l1, l2, l3, l4] = [0, 1, 2, 3, 4].map(leaf) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    // nodes: [0] root, [1], [2], [3], [4]=l0, [5]=l1, [6]=l2, [7]=l3, [8]=l4
    const n3 = merge(l3, l4);
    const n2 = merge(l1, l2);
    const n1 = merge(n3, l0);
    expect(cbmtRoot([l0, l1, l2, l3, l4])).toEqual(merge(n1, n2));
  });
});
