import { describe, expect, it } from 'vitest';
import { blockCommitments, encodeRawTransaction, hashHex } from '../testing/ckbMolecule.js';
import { CkbStandInNode, SECP256K1_BLAKE160_CODE_HASH } from '../testing/ckbNode.js';
import blocks from './fixtures/aggron-blocks-1-9.json' with { type: 'json' };
import genesisDepGroup from './fixtures/aggron-genesis-dep-group-tx.json' with { type: 'json' };
import mainnet from './fixtures/mainnet-block-76245.json' with { type: 'json' };
import { CkbTemplateError, cellbaseLock, createCkbJob, epochBlockSeconds } from './job.js';
import { headerHash, parseBlock, parseBlockTemplate, parseTransaction } from './parse.js';
import { bytesToCkbHex } from './uint.js';

const lock = { code_hash: SECP256K1_BLAKE160_CODE_HASH, hash_type: 'type' as const, args: `0x${'42'.repeat(20)}` };

describe('createCkbJob', () => {
  it('builds the header the stand-in node computes independently (molecule by hand, queue merkle)', () => {
    const node = new CkbStandInNode({ blockAssembler: { lock }, transactions: 4, proposals: 3 });
    node.mine(2);
    node.fork(2, 1); // a side block at height 2: the next template carries it as an uncle
    const template = parseBlockTemplate(node.template());
    expect(template.transactions).toHaveLength(4);
    expect(template.uncles).toHaveLength(1);
    expect(template.extension).toBeDefined();
    const job = createCkbJob(template, { id: '1', cleanJobs: true, createdAt: 5 });
    const block = job.block(new Uint8Array(16));
    const roots = blockCommitments(
      parseBlock(block),
      template.uncles.map((u) => u.hash),
    );
    expect(block.header.transactions_root).toBe(roots.transactionsRoot);
    expect(block.header.proposals_hash).toBe(roots.proposalsHash);
    expect(block.header.extra_hash).toBe(roots.extraHash);
    expect(job).toMatchObject({
      id: '1',
      height: Number(template.number),
      coin: 'CKB',
      createdAt: 5,
      workId: template.work_id,
    });
    expect(job.blockHash(new Uint8Array(16))).toBe(headerHash(block.header));
    expect(job.payoutLock).toEqual(lock);
    expect(job.coinbaseValue).toBe(0n);
    expect(block.transactions[0]).toEqual(template.cellbase.data);
    expect(block.extension).toBe(template.extension);
  });

  it('reads the epoch’s mean block interval from the packed epoch field (four hours over its length)', () => {
    // Mainnet block 76245: epoch 73, block 659 of 1,800 → 8 s; Aggron block 1: epoch 0 of 1,000 blocks → 14.4 s.
    expect(epochBlockSeconds(BigInt(mainnet.header.epoch))).toBe(8);
    expect(epochBlockSeconds(BigInt(blocks[0]?.header.epoch ?? '0'))).toBe(14.4);
    expect(() => epochBlockSeconds(0x49n)).toThrow(CkbTemplateError);
    const node = new CkbStandInNode({ blockAssembler: { lock } });
    const template = parseBlockTemplate(node.template());
    const job = createCkbJob(template, { id: '1', cleanJobs: true });
    expect(job.blockSeconds).toBe(epochBlockSeconds(BigInt(template.epoch)));
  });

  it('values the job by the cellbase output (the reward of the block 11 back) once the chain is old enough', () => {
    const node = new CkbStandInNode({ blockAssembler: { lock } });
    node.mine(12);
    const job = createCkbJob(parseBlockTemplate(node.template()), { id: '1', cleanJobs: true });
    expect(job.coinbaseValue).toBe(BigInt(node.template().cellbase.data.outputs[0]?.capacity ?? 0));
    expect(job.coinbaseValue).toBeGreaterThan(0n);
  });

  it('refuses a template whose transaction hash disagrees with its contents', () => {
    const template = parseBlockTemplate(new CkbStandInNode({ blockAssembler: { lock } }).template());
    const first = template.transactions[0];
    if (!first) throw new Error('no transaction');
    first.data.outputs_data = first.data.outputs_data.map(() => '0x00');
    expect(() => createCkbJob(template, { id: '1', cleanJobs: true })).toThrow(CkbTemplateError);
  });

  it('reads the lock of real cellbase witnesses (mainnet block 76245, Aggron block 1)', () => {
    expect(cellbaseLock(mainnet.transactions[0]?.witnesses ?? [])).toEqual({
      code_hash: SECP256K1_BLAKE160_CODE_HASH,
      hash_type: 'type',
      args: '0x2ec3a5fb4098b14f4887555fe58d966cab2c6a63',
    });
    expect(cellbaseLock(blocks[0]?.transactions[0]?.witnesses ?? []).args).toBe(
      '0xda648442dbb7347e467d1d09da13e5cd3a0ef0e1',
    );
    expect(() => cellbaseLock(['0x1234'])).toThrow(CkbTemplateError);
  });
});

describe('the stand-in node’s own molecule encoder against real transactions', () => {
  const cases: [string, unknown][] = [
    ['genesis dep group', genesisDepGroup.transaction],
    ['mainnet cellbase 76245', mainnet.transactions[0]],
    ...blocks.map((b): [string, unknown] => [`Aggron cellbase ${b.header.number}`, b.transactions[0]]),
  ];
  it.each(cases)('%s', (_name, json) => {
    const tx = parseTransaction(json, 'tx');
    expect(hashHex(encodeRawTransaction(tx))).toBe((json as { hash: string }).hash);
  });

  it('computes the real roots of mainnet block 76245', () => {
    const block = parseBlock(mainnet);
    const roots = blockCommitments(block, [mainnet.uncles[0]?.header.hash as string]);
    expect(roots.transactionsRoot).toBe(mainnet.header.transactions_root);
    expect(roots.extraHash).toBe(mainnet.header.extra_hash);
    expect(bytesToCkbHex(Buffer.from(roots.txHashes[0]?.slice(2) ?? '', 'hex'))).toBe(mainnet.transactions[0]?.hash);
  });
});
