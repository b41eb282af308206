import { blake2sWork, readUint256LE } from '@lodestone/pow';
import { afterEach, describe, expect, it } from 'vitest';
import { STAND_IN_MINER, startChainwebNode } from '../testing/chainwebNode.js';
import { ChainwebClient } from './chainwebClient.js';
import { hashToBase64Url, kadenaBlockHash } from './header.js';
import { kadenaBlockStatus } from './kadenaBlockStatus.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** The stand-in, and a block the pool mined on chain 3 through the mining API. */
async function minedBlock() {
  const node = await startChainwebNode();
  closing.push(() => node.close());
  const client = new ChainwebClient({ url: node.url });
  await client.info();
  const work = await client.work(STAND_IN_MINER, 3);
  const solved = Buffer.from(work.header);
  for (let nonce = 0n; readUint256LE(blake2sWork(solved)) > work.target; nonce++) solved.writeBigUInt64LE(nonce, 278);
  await client.solved(solved);
  const block = { chainId: 3, height: node.head(3).height, hash: hashToBase64Url(kadenaBlockHash(solved)) };
  expect(node.head(3).hash).toBe(block.hash);
  return { node, client, block };
}

describe('kadenaBlockStatus', () => {
  it('pending at depth 1, confirmed once the chain is the required depth past it', async () => {
    const { node, client, block } = await minedBlock();
    expect(await kadenaBlockStatus(client, block, 3)).toEqual({ kind: 'pending', confirmations: 1 });
    // The chain is one ahead of the others: the first round brings them level, the next two extend it.
    node.advanceCut(3);
    expect(await kadenaBlockStatus(client, block, 3)).toEqual({ kind: 'confirmed', confirmations: 3 });
  });

  it('orphaned when a competing block took its height and the chain went the required depth past it', async () => {
    const { node, client, block } = await minedBlock();
    node.orphan(3, block.height);
    const replacement = await kadenaBlockStatus(client, block, 2);
    expect(replacement).toEqual({ kind: 'orphaned', known: true, replacedBy: expect.any(String) });
    expect(replacement).not.toMatchObject({ replacedBy: block.hash });
  });

  it('pending, not on the chain, while a competing block is not yet deep enough', async () => {
    const { node, client, block } = await minedBlock();
    node.orphan(3, block.height);
    expect(await kadenaBlockStatus(client, block, 5)).toEqual({ kind: 'pending', confirmations: 0 });
  });

  it('a hash the node never saw, once the chain is past its height: orphaned and unknown', async () => {
    const { node, client, block } = await minedBlock();
    node.advanceCut(2);
    const unknown = { ...block, hash: hashToBase64Url(Buffer.alloc(32, 7)) };
    expect(await kadenaBlockStatus(client, unknown, 2)).toMatchObject({ kind: 'orphaned', known: false });
    expect(await kadenaBlockStatus(client, { ...block, height: block.height + 10 }, 2)).toEqual({
      kind: 'pending',
      confirmations: 0,
    });
  });
});
