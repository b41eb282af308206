import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressToScript } from '../bitcoin/address.js';
import { hashFromRpcHex } from '../bitcoin/bytes.js';
import { NETWORKS } from '../bitcoin/networks.js';
import { ByteReader } from '../bitcoin/reader.js';
import { createTemplateJob } from '../jobs/templateJob.js';
import type { ChainLogger } from '../logger.js';
import { closeFakeDaemons, fakeDaemon, ok, reply } from '../testing/fakeDaemon.js';
import { buildBlockTemplate } from '../testing/templateBuilder.js';
import { AuxChainSource } from './auxChain.js';
import { checkAuxPow, DOGECOIN_CHAIN_ID, MERGED_MINING_MAGIC, readAuxPow } from './auxpow.js';
import type { AuxBlock } from './auxRpc.js';
import { MergedMining, mergedWork, shareAuxPow } from './merged.js';

const PARENT_SCRIPT = addressToScript('rltc1q6tfup3z3n4vwakeajd4v7dl7y3e2jeuu053d2n', NETWORKS['litecoin-regtest']);
const BELLS_CHAIN_ID = 16;
const hash = (n: number) => n.toString(16).padStart(64, '0');

function auxBlock(overrides: Partial<AuxBlock> = {}): AuxBlock {
  return {
    hash: hash(0xd06e),
    chainId: DOGECOIN_CHAIN_ID,
    previousBlockHash: hash(0xd0),
    height: 5_000_001,
    coinbaseValue: 1_000_000_000_000n,
    bits: '207fffff',
    target: 0x7fffffn << 232n,
    ...overrides,
  };
}

describe('a merge-mined parent job', () => {
  const work = mergedWork([
    { ...auxBlock(), coin: 'DOGE' },
    { ...auxBlock({ hash: hash(0xbe11), chainId: BELLS_CHAIN_ID, target: 1n << 250n }), coin: 'BELLS' },
  ]);
  if (!work) throw new Error('no work');
  const job = createTemplateJob(
    buildBlockTemplate({
      transactions: [
        { data: '00', txid: hash(0xabc) },
        { data: '00', txid: hash(0xdef) },
      ],
    }),
    {
      id: '1',
      coin: 'LTC',
      algorithm: 'scrypt',
      payoutScript: PARENT_SCRIPT,
      cleanJobs: true,
      merged: work,
    },
  );
  const en1 = Buffer.from('0a0b0c0d', 'hex');
  const en2 = Buffer.from('01020304', 'hex');

  it('carries the commitment, pushed whole, in coinbase1 before the extranonce', () => {
    const commitmentAt = job.coinbase1.indexOf(work.commitment.toString('hex'));
    expect(commitmentAt).toBeGreaterThan(0);
    // One push of 44 bytes: 0x2c, then fa be 6d 6d.
    expect(job.coinbase1.slice(commitmentAt - 2, commitmentAt + 8)).toBe(`2c${MERGED_MINING_MAGIC.toString('hex')}`);
    expect(job.merged).toBe(work);
    // The easiest target is the largest one, DOGE's here.
    expect(work.easiestTarget).toBe(0x7fffffn << 232n);
  });

  it("builds, for any share, an AuxPoW each aux chain's check accepts", () => {
    const header = job.header(en1, en2, job.curtime, 7, job.version);
    for (const chain of work.chains) {
      const hex = shareAuxPow(job, chain, en1, en2, header);
      const auxpow = readAuxPow(new ByteReader(Buffer.from(hex, 'hex')));
      expect(auxpow.parentHeader.equals(Buffer.from(header))).toBe(true);
      // Dogecoin's and this chain id are both even, so at height 1 every nonce puts them in one slot
      // (the slot formula keeps nonce + chain id parity): the tree has four slots.
      expect(checkAuxPow(auxpow, hashFromRpcHex(chain.hash), chain.chainId)).toMatchObject({
        valid: true,
        treeSize: 4,
      });
      // The proof is for this chain only: under the other chain's id the slot is wrong.
      const other = work.chains.find((c) => c !== chain);
      if (!other) throw new Error('two chains');
      expect(checkAuxPow(auxpow, hashFromRpcHex(other.hash), other.chainId)).toMatchObject({ valid: false });
    }
  });

  it('has no merged work without a live aux chain', () => {
    expect(mergedWork([])).toBeUndefined();
  });
});

function logger(): ChainLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (_d, m) => lines.push(`info ${m}`),
    warn: (_d, m) => lines.push(`warn ${m}`),
    error: (_d, m) => lines.push(`error ${m}`),
  };
}

type Answer = 'good' | 'wrong-chain-id' | 'malformed-hash' | 'down';

async function auxNode() {
  const state = {
    answer: 'good' as Answer,
    tip: hash(0xd0),
    height: 5_000_001,
    blocks: 0,
    submitted: [] as string[],
    /** submitauxblock takes the block but its answer is lost (HTTP 500). */
    loseAnswers: false,
  };
  const daemon = await fakeDaemon((request, res) => {
    if (state.answer === 'down') return reply(res, 503, 'Work queue depth exceeded');
    switch (request.method) {
      case 'validateaddress':
        return ok(res, request.id, { isvalid: true, address: request.params[0], scriptPubKey: '76a914' });
      case 'getbestblockhash':
        return ok(res, request.id, state.tip);
      case 'createauxblock':
        state.blocks++;
        return ok(res, request.id, {
          hash: state.answer === 'malformed-hash' ? 'not a hash' : hash(0xd06e0000 + state.height),
          chainid: state.answer === 'wrong-chain-id' ? 1 : DOGECOIN_CHAIN_ID,
          previousblockhash: state.tip,
          coinbasevalue: 1_000_000_000_000,
          bits: '207fffff',
          height: state.height,
          _target: `${'00'.repeat(29)}ffff7f`,
        });
      case 'submitauxblock':
        state.submitted.push(String(request.params[0]));
        return state.loseAnswers ? reply(res, 500, 'lost') : ok(res, request.id, true);
      case 'getblockheader': {
        const known = state.submitted.includes(String(request.params[0]));
        return known
          ? ok(res, request.id, { hash: request.params[0], height: state.height, confirmations: 1 })
          : reply(res, 200, { result: null, error: { code: -5, message: 'Block not found' }, id: request.id });
      }
      default:
        return reply(res, 200, { result: null, error: { code: -32601, message: 'Method not found' }, id: request.id });
    }
  });
  return { state, url: daemon.url() };
}

/** The Dogecoin aux chain on a stand-in node, polled every 20 ms. */
function dogeChain(url: string, logger?: ChainLogger): AuxChainSource {
  return new AuxChainSource({
    coin: 'DOGE',
    chainId: DOGECOIN_CHAIN_ID,
    daemons: [url],
    payoutAddress: 'mzDogeRegtest',
    pollIntervalMs: 20,
    ...(logger && { logger }),
  });
}

/** A test's body with the DOGE chain started on a stand-in node; the chain is stopped after it. */
async function onDogeChain(body: (doge: AuxChainSource, node: Awaited<ReturnType<typeof auxNode>>) => Promise<void>) {
  const node = await auxNode();
  const doge = dogeChain(node.url);
  await doge.start();
  try {
    await body(doge, node);
  } finally {
    await doge.stop();
  }
}

/** The chain's current aux block, which the test needs. */
function currentBlock(doge: AuxChainSource): AuxBlock {
  const block = doge.current();
  if (!block) throw new Error('no aux block');
  return block;
}

describe('an aux chain', () => {
  afterEach(closeFakeDaemons);

  it('follows its daemon, and pauses alone on a wrong chain id, a malformed hash or a daemon down, then resumes', async () => {
    const node = await auxNode();
    const log = logger();
    const doge = dogeChain(node.url, log);
    const merged = new MergedMining([doge], log);
    const seen: (string | undefined)[] = [];
    merged.onChange((w) => seen.push(w?.chains.map((c) => `${c.coin}@${c.height}`).join(',')));
    await merged.start();
    try {
      expect(merged.current()?.chains).toMatchObject([{ coin: 'DOGE', height: 5_000_001, chainId: DOGECOIN_CHAIN_ID }]);

      // The aux chain moves: new aux work at once.
      node.state.tip = hash(0xd1);
      node.state.height++;
      await vi.waitFor(() => expect(merged.current()?.chains[0]?.height).toBe(5_000_002));

      for (const answer of ['wrong-chain-id', 'malformed-hash', 'down'] as const) {
        node.state.answer = answer;
        node.state.tip = hash(node.state.height);
        node.state.height++;
        await vi.waitFor(() => expect(merged.current()).toBeUndefined());
        expect(doge.paused).toBeDefined();
        node.state.answer = 'good';
        await vi.waitFor(() => expect(merged.current()?.chains[0]?.height).toBe(node.state.height));
      }
      const pauses = log.lines.filter((l) => l.startsWith('warn aux chain DOGE paused'));
      expect(pauses).toHaveLength(3);
      expect(pauses[0]).toContain('answered chain id 1; DOGE is configured with 98');
      expect(pauses[1]).toContain('hash is not 32 bytes of hex');
      expect(pauses[2]).toContain('503');
      expect(log.lines.filter((l) => l === 'info aux chain DOGE resumed')).toHaveLength(3);
      expect(seen.filter((s) => s === undefined)).toHaveLength(3);
    } finally {
      await merged.stop();
    }
  });

  it('does not send a block of a tip its chain has left', () =>
    onDogeChain(async (doge, node) => {
      const block = currentBlock(doge);
      node.state.tip = hash(0xd1);
      node.state.height++;
      await vi.waitFor(() => expect(doge.current()?.previousBlockHash).toBe(hash(0xd1)));
      const result = await doge.submit(block, '00');
      expect(result).toMatchObject({ accepted: false, reason: expect.stringContaining('stale') });
      expect(node.state.submitted).toEqual([]);
      const fresh = currentBlock(doge);
      expect(await doge.submit(fresh, '00')).toEqual({ accepted: true, hash: fresh.hash });
      expect(node.state.submitted).toEqual([fresh.hash]);
    }));

  it('sends an aux block once, and counts one whose answer was lost when the daemon has it', () =>
    onDogeChain(async (doge, node) => {
      const block = currentBlock(doge);
      expect(await doge.submit(block, '00')).toEqual({ accepted: true, hash: block.hash });
      // A second share of the same aux block: not sent, not a second block.
      expect(await doge.submit(block, '00')).toMatchObject({
        accepted: false,
        reason: expect.stringContaining('duplicate'),
      });
      expect(node.state.submitted).toEqual([block.hash]);

      node.state.tip = hash(0xd2);
      node.state.height++;
      node.state.loseAnswers = true;
      await vi.waitFor(() => expect(doge.current()?.previousBlockHash).toBe(hash(0xd2)));
      const next = currentBlock(doge);
      expect(await doge.submit(next, '00')).toEqual({ accepted: true, hash: next.hash });
    }));

  it('checks a payout address when its daemon first answers, and pauses on a wrong one', async () => {
    let up = false;
    const daemon = await fakeDaemon((request, res) => {
      if (!up) return reply(res, 503, 'starting');
      if (request.method === 'getbestblockhash') return ok(res, request.id, hash(0xd0));
      return request.method === 'validateaddress' ? ok(res, request.id, { isvalid: false }) : ok(res, request.id, null);
    });
    const doge = dogeChain(daemon.url());
    await doge.start();
    try {
      expect(doge.paused).toContain('503');
      up = true;
      await vi.waitFor(() => expect(doge.paused).toContain('payout address mzDogeRegtest is not valid'));
      expect(doge.current()).toBeUndefined();
    } finally {
      await doge.stop();
    }
  });

  it('refuses to start on a payout address its daemon says is not of its chain', async () => {
    const daemon = await fakeDaemon((request, res) =>
      request.method === 'validateaddress' ? ok(res, request.id, { isvalid: false }) : ok(res, request.id, null),
    );
    const doge = new AuxChainSource({ coin: 'DOGE', chainId: 98, daemons: [daemon.url()], payoutAddress: 'Lnope' });
    await expect(doge.start()).rejects.toThrow('DOGE payout address Lnope is not valid');
  });

  it('refuses two aux chains with one chain id', () => {
    const a = new AuxChainSource({ coin: 'DOGE', chainId: 98, daemons: ['http://127.0.0.1:1/'], payoutAddress: 'x' });
    const b = new AuxChainSource({ coin: 'BELLS', chainId: 98, daemons: ['http://127.0.0.1:2/'], payoutAddress: 'y' });
    expect(() => new MergedMining([a, b])).toThrow('two aux chains share the chain id 98');
  });
});
