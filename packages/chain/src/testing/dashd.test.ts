/**
 * The dashd stand-in's own checks: the real testnet block 917286 passes them; blocks built by the pool
 * from the stand-in's templates pass; each kind of bad block is refused with Dash Core's reason.
 */
import { POW } from '@lodestone/pow';
import { afterEach, describe, expect, it } from 'vitest';
import { DASH_TEMPLATE_DIALECT } from '../dash/template.js';
import { createTemplateJob, type TemplateJob } from '../jobs/templateJob.js';
import { BitcoinRpc } from '../rpc/bitcoinRpc.js';
import { RpcClient } from '../rpc/client.js';
import { parseBlockTemplate } from '../rpc/template.js';
import {
  type BlockExpectation,
  checkBlockAgainst,
  checkBlockAlone,
  decodeDashBlock,
  merkleRootOf,
  targetOf,
} from './dashBlock.js';
import { type Dashd, REAL_TESTNET_BLOCK, startDashd } from './dashd.js';
import { closeFakeDaemons } from './fakeDaemon.js';

afterEach(closeFakeDaemons);

const payoutScript = Buffer.from(`76a914${'22'.repeat(20)}88ac`, 'hex');
const en1 = Buffer.from('00000001', 'hex');
const en2 = Buffer.from('000000aa', 'hex');

function jobFrom(raw: Record<string, unknown>): TemplateJob {
  const template = parseBlockTemplate(raw, 'dashd', DASH_TEMPLATE_DIALECT);
  return createTemplateJob(template, { id: '1', coin: 'DASH', algorithm: 'x11', payoutScript, cleanJobs: true });
}

/** The block for the first nonce whose X11 hash meets (or, with `above`, misses) the job's target. */
function solve(job: TemplateJob, above = false, extranonce2 = en2): string {
  for (let nonce = 0; nonce < 10_000; nonce++) {
    const header = job.header(en1, extranonce2, job.curtime, nonce, job.version);
    const meets = POW.x11.hashValue(POW.x11.hash(header)) <= job.networkTarget;
    if (meets !== above) return job.block(en1, extranonce2, job.curtime, nonce, job.version);
  }
  throw new Error('no nonce found');
}

/** Where the coinbase's payload starts in a block (after its CompactSize length byte). */
function payloadStart(bytes: Buffer): number {
  const coinbase = decodeDashBlock(bytes).transactions[0];
  if (!coinbase?.payload) throw new Error('no payload');
  return 81 + coinbase.raw.length - coinbase.payload.length;
}

/** Re-solves a block whose bytes were changed (recomputing the merkle root unless told not to). */
function resolve(hex: string, edit: (bytes: Buffer) => Buffer | undefined, keepRoot = false): string {
  const original = Buffer.from(hex, 'hex');
  const bytes = edit(original) ?? original;
  const block = decodeDashBlock(bytes);
  if (!keepRoot) merkleRootOf(block.transactions.map((tx) => tx.txid)).copy(bytes, 36);
  const target = targetOf(bytes.readUInt32LE(72));
  for (let nonce = 0; ; nonce++) {
    bytes.writeUInt32LE(nonce, 76);
    if (POW.x11.hashValue(POW.x11.hash(bytes.subarray(0, 80))) <= target) return bytes.toString('hex');
  }
}

describe('the stand-in checks a real Dash block', () => {
  // What Dash Core expected of block 917286: its published header and coinbase (miner first, then the
  // masternode payment), the reward being the sum of the two outputs (no transactions, no fees).
  const real: BlockExpectation = {
    height: 917286,
    previousBlockHash: '000000220c69399e8cc3de9182735f15ab0902c4a5d0182993fe641cfac7d8fd',
    bits: 0x1e03f341,
    mintime: 1700609994 + 1,
    blockReward: 74346627n + 223039881n,
    masternode: [{ payee: '', script: '76a91421eca01872dbfce4bf20886a004f6caaa69c1ff788ac', amount: 223039881 }],
    superblock: [],
    coinbasePayload: REAL_TESTNET_BLOCK.hex.slice(-350),
  };
  const block = decodeDashBlock(Buffer.from(REAL_TESTNET_BLOCK.hex, 'hex'));

  it('accepts it: X11 under its bits, merkle root, BIP34 height, CbTx, payee', () => {
    expect(checkBlockAlone(block)).toBeUndefined();
    expect(checkBlockAgainst(block, real)).toBeUndefined();
  });

  it('refuses it where the node would have had other expectations', () => {
    expect(checkBlockAgainst(block, { ...real, masternode: [{ ...real.masternode[0], amount: 1 } as never] })).toBe(
      'bad-cb-payee',
    );
    expect(checkBlockAgainst(block, { ...real, blockReward: real.blockReward - 1n })).toBe('bad-cb-amount');
    expect(checkBlockAgainst(block, { ...real, height: 917287 })).toBe('bad-cb-height');
    expect(checkBlockAgainst(block, { ...real, bits: 0x1e03f340 })).toBe('bad-diffbits');
    expect(checkBlockAlone({ ...block, bits: 0x1d03f341 })).toBe('high-hash');
  });
});

describe('the dashd stand-in', () => {
  let dashd: Dashd;

  async function rpc() {
    dashd = await startDashd({ credentials: 'rpc:secret' });
    return new BitcoinRpc(new RpcClient({ url: dashd.url('rpc:secret@') }), DASH_TEMPLATE_DIALECT);
  }

  it('serves a Dash template over JSON-RPC that the pool reads, on top of the real block 917286', async () => {
    const client = await rpc();
    const template = await client.getBlockTemplate({ rules: [] });
    expect(template.previousBlockHash).toBe(REAL_TESTNET_BLOCK.hash);
    expect(template.height).toBe(917287);
    expect(template.transactions).toHaveLength(3);
    expect(template.coinbase?.payees.map((p) => p.script)).toEqual([
      '6a',
      '76a914c69a0bda7daaae481be8def95e5f347a1d00a4b488ac',
    ]);
    expect(await client.getBestBlockHash()).toBe(REAL_TESTNET_BLOCK.hash);
    expect((await client.validateAddress('yeRZBWYfeNE4yVUHV4ZLs83Ppn9aMRH57A')).scriptPubKey).toBe(
      '76a914c69a0bda7daaae481be8def95e5f347a1d00a4b488ac',
    );
    await expect(new BitcoinRpc(new RpcClient({ url: dashd.url() })).getBestBlockHash()).rejects.toThrow();
  });

  it('accepts a block the pool built and advances; the same block again is a duplicate, an old one inconclusive', async () => {
    const client = await rpc();
    const job = jobFrom(dashd.template());
    const hex = solve(job);
    expect(await client.submitBlock(hex)).toBeNull();
    expect(dashd.tip().height).toBe(917287);
    expect(await client.getBestBlockHash()).toBe(dashd.tip().hash);
    expect(await client.submitBlock(hex)).toBe('duplicate');
    const next = jobFrom(dashd.template());
    expect(next.height).toBe(917288);
    // A block on the old tip (another branch): valid, but not connected.
    expect(dashd.check(solve(job, false, Buffer.from('000000bb', 'hex')))).toBe('inconclusive');
  });

  it('refuses each kind of bad block with Dash Core’s reason', async () => {
    await rpc();
    const raw = dashd.template();
    const good = solve(jobFrom(raw));
    expect(dashd.check(good)).toBeNull();
    const masternode = raw.masternode as { payee: string; script: string; amount: number }[];
    const payload = raw.coinbase_payload as string;
    const cases: [string, string][] = [
      // Built by the pool from a template that differs from the node's:
      ['missing masternode payee', solve(jobFrom({ ...raw, masternode: masternode.slice(0, 1) }))],
      [
        'wrong masternode amount',
        solve(
          jobFrom({
            ...raw,
            masternode: [masternode[0], { ...masternode[1], amount: (masternode[1]?.amount ?? 0) - 1 }],
          }),
        ),
      ],
      ['pays too much', solve(jobFrom({ ...raw, coinbasevalue: (raw.coinbasevalue as number) + 1 }))],
      [
        'wrong MN list merkle root',
        solve(jobFrom({ ...raw, coinbase_payload: `${payload.slice(0, 12)}ff${payload.slice(14)}` })),
      ],
      [
        'wrong quorum merkle root',
        solve(jobFrom({ ...raw, coinbase_payload: `${payload.slice(0, 76)}ff${payload.slice(78)}` })),
      ],
      [
        'wrong ChainLock',
        solve(jobFrom({ ...raw, coinbase_payload: `${payload.slice(0, 142)}01${payload.slice(144)}` })),
      ],
      ['wrong credit pool balance', solve(jobFrom({ ...raw, coinbase_payload: `${payload.slice(0, -2)}01` }))],
      ['no CbTx', solve(jobFrom({ ...raw, coinbase_payload: '' }))],
      ['high hash', solve(jobFrom(raw), true)],
      // The good block with its bytes changed afterwards:
      ['wrong merkle root', resolve(good, (b) => flip(b, 36), true)],
      [
        'wrong CbTx height',
        resolve(good, (b) => {
          b.writeInt32LE(917000, payloadStart(b) + 2);
          return b;
        }),
      ],
      ['short CbTx payload', resolve(good, (b) => shortenPayload(b))],
      ['unknown previous block', resolve(good, (b) => flip(b, 4))],
    ];
    const reasons = Object.fromEntries(cases.map(([what, hex]) => [what, safeCheck(dashd, hex)]));
    expect(reasons).toEqual({
      'missing masternode payee': 'bad-cb-payee',
      'wrong masternode amount': 'bad-cb-payee',
      'pays too much': 'bad-cb-amount',
      'wrong MN list merkle root': 'bad-cbtx-mnmerkleroot',
      'wrong quorum merkle root': 'bad-cbtx-quorummerkleroot',
      'wrong ChainLock': 'bad-cbtx-invalid-clsig',
      'wrong credit pool balance': 'bad-cbtx-assetlocked-amount',
      'no CbTx': 'bad-cb-type',
      'high hash': 'high-hash',
      'wrong merkle root': 'bad-txnmrklroot',
      'wrong CbTx height': 'bad-cbtx-height',
      'short CbTx payload': 'bad-cbtx-payload',
      'unknown previous block': 'prev-blk-not-found',
    });
    expect(dashd.tip().height).toBe(917286);
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  bytes[at] = (bytes[at] ?? 0) ^ 1;
  return bytes;
}

/** The coinbase payload one byte shorter (its length byte too): the block decodes, the CbTx does not. */
function shortenPayload(bytes: Buffer): Buffer {
  const start = payloadStart(bytes);
  const out = Buffer.concat([bytes.subarray(0, start), bytes.subarray(start + 1)]);
  out[start - 1] = (out[start - 1] ?? 0) - 1;
  return out;
}

function safeCheck(dashd: Dashd, hex: string): string | null {
  try {
    return dashd.check(hex);
  } catch (error) {
    return `decode: ${(error as Error).message}`;
  }
}
