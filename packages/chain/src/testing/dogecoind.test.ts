/**
 * The dogecoind stand-in over HTTP with plain fetch (not the pool's client): the answers' shapes, a
 * proof built by hand in this file being accepted, and each refusal Dogecoin Core makes, in its words.
 */
import { scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { base58CheckEncode } from '../bitcoin/address.js';
import { sha256d } from '../bitcoin/hash.js';
import { type AuxDaemon, type AuxDaemonOptions, startAuxDaemon } from './dogecoind.js';

// Dogecoin regtest addresses of the qa test qa/rpc-tests/createauxblock.py (P2PKH 111, P2SH 196).
const P2PKH = 'mmMP9oKFdADezYzduwJFcLNmmi8JHUKdx9';
const P2SH = '2Mwvgpd2H7wDPXx8jWe3Vqiciix6JqSbsyz';
const MAINNET_P2PKH = base58CheckEncode(Buffer.concat([Buffer.from([30]), Buffer.alloc(20, 0x33)]));

const daemons: AuxDaemon[] = [];
async function start(options: AuxDaemonOptions = {}): Promise<AuxDaemon> {
  const daemon = await startAuxDaemon({ now: () => 1_700_000_000, ...options });
  daemons.push(daemon);
  return daemon;
}
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.close();
});

interface Reply {
  status: number;
  result: unknown;
  error: { code: number; message: string } | null;
}

async function rpc(daemon: AuxDaemon, method: string, params: unknown = [], auth?: string): Promise<Reply> {
  const response = await fetch(daemon.url(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth && { authorization: auth }) },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'test', method, params }),
  });
  const text = await response.text();
  if (text === '') return { status: response.status, result: undefined, error: null };
  const body = JSON.parse(text) as { result: unknown; error: Reply['error']; id: unknown };
  expect(body.id).toBe('test');
  return { status: response.status, result: body.result, error: body.error };
}

async function call<T>(daemon: AuxDaemon, method: string, params: unknown = []): Promise<T> {
  const reply = await rpc(daemon, method, params);
  expect(reply.error).toBeNull();
  expect(reply.status).toBe(200);
  return reply.result as T;
}

interface AuxBlockAnswer {
  hash: string;
  chainid: number;
  previousblockhash: string;
  coinbasevalue: number;
  bits: string;
  height: number;
  target: string;
}

// ---------------------------------------------------------------------------------------------
// A merged-mining proof, built here from the format's description (a parent coinbase committing to
// the aux chain tree, an 80-byte parent header mined with scrypt), none of it from the code under test.

const le32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(n >>> 0);
  return out;
};

/** The slot a chain takes for a coinbase nonce and tree height (Dogecoin's getExpectedIndex, by hand). */
function slotFor(nonce: number, chainId: number, height: number): number {
  const mod = 2n ** 32n;
  let r = (BigInt(nonce) * 1103515245n + 12345n) % mod;
  r = (r + BigInt(chainId)) % mod;
  r = (r * 1103515245n + 12345n) % mod;
  return Number(r % 2n ** BigInt(height));
}

interface ProofShape {
  /** Height of the aux chain tree (0: the aux hash is the root). */
  treeHeight?: number;
  nonce?: number;
  /** The slot to put the aux hash in; the right one by default. */
  slot?: number;
  /** Mine the parent header to miss the target instead of meeting it. */
  missTarget?: boolean;
}

function buildProof(auxHash: string, target: bigint, shape: ProofShape = {}): { hex: string; parentHeader: Buffer } {
  const height = shape.treeHeight ?? 0;
  const nonce = shape.nonce ?? 0;
  const slot = shape.slot ?? slotFor(nonce, 0x62, height);
  const branch = Array.from({ length: height }, (_, i) => sha256d(Buffer.from(`other chain ${i}`)));
  let node: Buffer = Buffer.from(auxHash, 'hex').reverse();
  branch.forEach((sibling, level) => {
    node = sha256d((slot >> level) & 1 ? Buffer.concat([sibling, node]) : Buffer.concat([node, sibling]));
  });
  const commitment = Buffer.concat([
    Buffer.from('fabe6d6d', 'hex'),
    Buffer.from(node).reverse(),
    le32(2 ** height),
    le32(nonce),
  ]);
  // A Litecoin-like coinbase: BIP34 height, then the commitment as one push.
  const scriptSig = Buffer.concat([Buffer.from('03a0bb0d', 'hex'), Buffer.from([commitment.length]), commitment]);
  const payTo = Buffer.from(`76a914${'44'.repeat(20)}88ac`, 'hex');
  const coinbase = Buffer.concat([
    Buffer.from('01000000', 'hex'),
    Buffer.from([1]),
    Buffer.alloc(32),
    Buffer.from('ffffffff', 'hex'),
    Buffer.from([scriptSig.length]),
    scriptSig,
    Buffer.from('ffffffff', 'hex'),
    Buffer.from([1]),
    Buffer.from('00f2052a01000000', 'hex'),
    Buffer.from([payTo.length]),
    payTo,
    Buffer.from('00000000', 'hex'),
  ]);
  const header = Buffer.concat([
    le32(0x20000000),
    Buffer.alloc(32, 0x11),
    sha256d(coinbase), // the coinbase alone: the merkle root is its txid
    le32(1_700_000_000),
    le32(0x207fffff),
    le32(0),
  ]);
  const powValue = () =>
    BigInt(`0x${scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 }).reverse().toString('hex')}`);
  for (let n = 0; powValue() <= target === Boolean(shape.missTarget); n++) header.writeUInt32LE(n + 1, 76);
  const proof = Buffer.concat([
    coinbase,
    Buffer.alloc(32), // hashBlock
    Buffer.from([0]), // no coinbase branch: the coinbase is the parent's only transaction
    le32(0), // its index
    Buffer.from([height]),
    ...branch,
    le32(slot),
    header,
  ]);
  return { hex: proof.toString('hex'), parentHeader: header };
}

const targetOf = (answer: AuxBlockAnswer) => BigInt(`0x${Buffer.from(answer.target, 'hex').reverse().toString('hex')}`);

// ---------------------------------------------------------------------------------------------

describe('createauxblock', () => {
  it('answers in Dogecoin Core’s shape, for a block on its tip', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    expect(Object.keys(answer).sort()).toEqual(
      ['bits', 'chainid', 'coinbasevalue', 'hash', 'height', 'previousblockhash', 'target'].sort(),
    );
    expect(answer.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.chainid).toBe(98);
    expect(answer.previousblockhash).toBe(await call(daemon, 'getbestblockhash'));
    expect(answer.height).toBe((await call<number>(daemon, 'getblockcount')) + 1);
    expect(answer.coinbasevalue).toBe(1_000_000_000_000);
    expect(answer.bits).toBe('207fffff');
    // The target's bytes least significant first: 0x7fffff << 232 ends in ff ff 7f.
    expect(answer.target).toBe(`${'00'.repeat(29)}ffff7f`);
    expect(daemon.chainId).toBe(0x62);
  });

  it('gives the same block until the tip moves; another address gets another block', async () => {
    const daemon = await start();
    const first = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    expect(await call(daemon, 'createauxblock', [P2PKH])).toEqual(first);
    const other = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2SH]);
    expect(other.hash).not.toBe(first.hash);
    expect({ ...other, hash: first.hash }).toEqual(first);
    daemon.mineElsewhere();
    const next = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    expect(next.hash).not.toBe(first.hash);
    expect(next.height).toBe(first.height + 1);
    expect(next.previousblockhash).toBe(daemon.tipHash());
  });

  it('refuses an address that is not one of its network’s, as Dogecoin does (-8)', async () => {
    const daemon = await start();
    for (const address of [MAINNET_P2PKH, 'x']) {
      const reply = await rpc(daemon, 'createauxblock', [address]);
      expect(reply).toMatchObject({ status: 500, error: { code: -8, message: 'Invalid coinbase payout address' } });
    }
    expect((await rpc(daemon, 'createauxblock', [])).error?.code).toBe(-1);
    expect(await call(daemon, 'validateaddress', [MAINNET_P2PKH])).toEqual({ isvalid: false });
    expect(await call(daemon, 'validateaddress', [P2PKH])).toMatchObject({
      isvalid: true,
      address: P2PKH,
      scriptPubKey: '76a91440015860f45d48eeeb2224dce3ad94ba91763e1e88ac',
      ismine: false,
      isscript: false,
    });
    // The same address is valid for a mainnet node only in its mainnet form.
    const mainnet = await start({ network: 'mainnet' });
    expect(await call(mainnet, 'createauxblock', [MAINNET_P2PKH])).toMatchObject({ chainid: 98 });
    expect((await rpc(mainnet, 'createauxblock', [P2PKH])).error?.code).toBe(-8);
  });

  it('says `_target` instead of `target` when run as with -rpcnamecoinapi; named arguments work', async () => {
    const daemon = await start({ namecoinApi: true, bits: 0x1e0ffff0 });
    const answer = await call<Record<string, unknown>>(daemon, 'createauxblock', { address: P2PKH });
    expect(answer).not.toHaveProperty('target');
    expect(answer._target).toBe(`${'00'.repeat(27)}f0ff0f0000`);
    expect(answer.bits).toBe('1e0ffff0');
  });
});

describe('submitauxblock', () => {
  it('accepts a proof built by hand and extends its chain with the block it described', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    const { hex, parentHeader } = buildProof(answer.hash, targetOf(answer));
    expect(await call(daemon, 'submitauxblock', [answer.hash, hex])).toBe(true);

    expect(daemon.height()).toBe(answer.height);
    expect(daemon.tipHash()).toBe(answer.hash);
    expect(await call(daemon, 'getblockhash', [answer.height])).toBe(answer.hash);
    const header = await call<Record<string, unknown>>(daemon, 'getblockheader', [answer.hash]);
    expect(header).toMatchObject({
      hash: answer.hash,
      height: answer.height,
      confirmations: 1,
      previousblockhash: answer.previousblockhash,
      versionHex: '00620104', // chain id 0x62, the AuxPoW flag, base version 4
      bits: '207fffff',
    });
    expect(daemon.accepted()).toEqual([
      {
        hash: answer.hash,
        height: answer.height,
        payoutAddress: P2PKH,
        coinbaseValue: 1_000_000_000_000n,
        auxpow: hex,
      },
    ]);
    expect(daemon.submissions()).toEqual([{ hash: answer.hash, accepted: true }]);

    // The stored block: its one transaction pays the address the coinbase value, and carries the proof.
    const block = await call<{ tx: string[]; merkleroot: string; auxpow: Record<string, unknown> }>(
      daemon,
      'getblock',
      [answer.hash],
    );
    expect(block.tx).toEqual([block.merkleroot]);
    expect(block.auxpow).toMatchObject({ index: 0, chainindex: 0, parentblock: parentHeader.toString('hex') });
    const raw = await call<string>(daemon, 'getblock', [answer.hash, false]);
    expect(raw.slice(160, 160 + hex.length)).toBe(hex);
    expect(raw.endsWith(`0010a5d4e8000000${'19'}76a91440015860f45d48eeeb2224dce3ad94ba91763e1e88ac00000000`)).toBe(
      true,
    );
    // The header it hashed is the one it serves: sha256d of the first 80 bytes is the block's hash.
    expect(
      Buffer.from(sha256d(Buffer.from(raw.slice(0, 160), 'hex')))
        .reverse()
        .toString('hex'),
    ).toBe(answer.hash);
  });

  it('accepts a proof from a deeper chain tree when the aux hash sits in its slot', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2SH]);
    const { hex } = buildProof(answer.hash, targetOf(answer), { treeHeight: 3, nonce: 12345 });
    expect(await call(daemon, 'submitauxblock', [answer.hash, hex])).toBe(true);
    expect(daemon.accepted()[0]).toMatchObject({ payoutAddress: P2SH, height: 1 });
  });

  it('refuses a proof for the wrong slot with Dogecoin’s reason: false, the chain unchanged', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    const right = slotFor(7, 0x62, 2);
    const { hex } = buildProof(answer.hash, targetOf(answer), { treeHeight: 2, nonce: 7, slot: (right + 1) % 4 });
    expect(await call(daemon, 'submitauxblock', [answer.hash, hex])).toBe(false);
    expect(daemon.height()).toBe(0);
    expect(daemon.accepted()).toEqual([]);
    expect(daemon.submissions()).toEqual([{ hash: answer.hash, accepted: false, reason: 'Aux POW wrong index' }]);
  });

  it('refuses a parent whose scrypt hash is above the aux block’s target', async () => {
    const daemon = await start({ bits: 0x1e0ffff0 });
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    const { hex } = buildProof(answer.hash, targetOf(answer), { missTarget: true });
    expect(await call(daemon, 'submitauxblock', [answer.hash, hex])).toBe(false);
    expect(daemon.submissions().at(-1)?.reason).toBe('CheckAuxPowProofOfWork : AUX proof of work failed');
  });

  it('the same hash again: true, as Dogecoin answers a block it already has; unknown after the next block is asked for', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    const { hex } = buildProof(answer.hash, targetOf(answer));
    expect(await call(daemon, 'submitauxblock', [answer.hash, hex])).toBe(true);
    expect(await call(daemon, 'submitauxblock', [answer.hash, hex])).toBe(true);
    expect(daemon.height()).toBe(1);
    expect(daemon.accepted()).toHaveLength(1);
    expect(daemon.submissions().at(-1)).toEqual({ hash: answer.hash, accepted: true, reason: 'duplicate' });

    await call(daemon, 'createauxblock', [P2PKH]); // the tip moved: the cache is emptied
    const again = await rpc(daemon, 'submitauxblock', [answer.hash, hex]);
    expect(again).toMatchObject({ status: 500, error: { code: -8, message: 'block hash unknown' } });
    expect(daemon.submissions().at(-1)).toEqual({ hash: answer.hash, accepted: false, reason: 'block hash unknown' });
  });

  it('a block made stale by another miner: unknown once a new block was asked for, beside the tip before', async () => {
    const daemon = await start();
    const first = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    const second = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2SH]);
    daemon.mineElsewhere();
    const tip = daemon.tipHash();

    // Sent before anyone asked for a block on the new tip: stored beside the chain, answered true.
    expect(await call(daemon, 'submitauxblock', [second.hash, buildProof(second.hash, targetOf(second)).hex])).toBe(
      true,
    );
    expect(daemon.tipHash()).toBe(tip);
    expect(daemon.submissions().at(-1)).toEqual({ hash: second.hash, accepted: true, reason: 'side branch' });
    expect(await call(daemon, 'getblockheader', [second.hash])).toMatchObject({ confirmations: -1, height: 1 });

    // What a pool sees in practice: it asks for the new tip's block first, then sends the old one.
    await call(daemon, 'createauxblock', [P2PKH]);
    const stale = await rpc(daemon, 'submitauxblock', [first.hash, buildProof(first.hash, targetOf(first)).hex]);
    expect(stale.error).toEqual({ code: -8, message: 'block hash unknown' });
    expect(daemon.tipHash()).toBe(tip);
  });

  it('answers malformed arguments with Dogecoin’s codes and messages', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    expect((await rpc(daemon, 'submitauxblock', ['00', 'x'])).error).toEqual({
      code: -8,
      message: 'hash must be of length 64 (not 2)',
    });
    expect((await rpc(daemon, 'submitauxblock', ['zz', 'x'])).error).toEqual({
      code: -8,
      message: "hash must be hexadecimal string (not 'zz')",
    });
    expect((await rpc(daemon, 'submitauxblock', [answer.hash, 'x'])).error).toEqual({
      code: -22,
      message: 'AuxPow decode failed',
    });
    expect((await rpc(daemon, 'submitauxblock', [answer.hash, '00'])).error?.code).toBe(-22);
    const unknown = 'ab'.repeat(32);
    expect((await rpc(daemon, 'submitauxblock', [unknown, buildProof(unknown, 1n << 255n).hex])).error).toEqual({
      code: -8,
      message: 'block hash unknown',
    });
    expect((await rpc(daemon, 'submitauxblock', [answer.hash])).error?.code).toBe(-1);
    expect(daemon.height()).toBe(0);
  });
});

describe('getauxblock', () => {
  it('creates a block paying its wallet, takes a proof as a bool, then pays a new wallet address', async () => {
    const daemon = await start();
    const answer = await call<AuxBlockAnswer>(daemon, 'getauxblock');
    expect(answer).toMatchObject({ chainid: 98, height: 1, bits: '207fffff' });
    expect(await call(daemon, 'getauxblock')).toEqual(answer);
    expect(await call(daemon, 'getauxblock', [answer.hash, buildProof(answer.hash, targetOf(answer)).hex])).toBe(true);

    const next = await call<AuxBlockAnswer>(daemon, 'getauxblock');
    const wrong = buildProof(next.hash, targetOf(next), { treeHeight: 1, slot: 1 - slotFor(0, 0x62, 1) });
    expect(await call(daemon, 'getauxblock', [next.hash, wrong.hex])).toBe(false);
    expect(await call(daemon, 'getauxblock', [next.hash, buildProof(next.hash, targetOf(next)).hex])).toBe(true);

    const [a, b] = daemon.accepted();
    expect(a?.payoutAddress).not.toBe(b?.payoutAddress);
    for (const address of [a?.payoutAddress, b?.payoutAddress]) {
      expect(await call(daemon, 'validateaddress', [address])).toMatchObject({ isvalid: true, ismine: true });
    }
    expect((await rpc(daemon, 'getauxblock', [next.hash])).error?.code).toBe(-1);
  });
});

describe('chain queries and unknown methods', () => {
  it('answers as Dogecoin Core does', async () => {
    const daemon = await start();
    const genesis = await call<string>(daemon, 'getblockhash', [0]);
    expect(genesis).toBe(daemon.tipHash());
    expect((await rpc(daemon, 'getblockhash', [1])).error).toEqual({ code: -8, message: 'Block height out of range' });
    expect((await rpc(daemon, 'getblockhash', ['0'])).error?.code).toBe(-1);
    expect((await rpc(daemon, 'getblockheader', ['00'.repeat(32)])).error).toEqual({
      code: -5,
      message: 'Block not found',
    });
    expect(await call(daemon, 'getblockheader', { blockhash: genesis })).toMatchObject({ height: 0, confirmations: 1 });
    daemon.mineElsewhere(2);
    expect(daemon.height()).toBe(2);
    expect(await call(daemon, 'getblockheader', [genesis])).toMatchObject({ confirmations: 3 });
    const missing = await rpc(daemon, 'getblocktemplate');
    expect(missing).toMatchObject({ status: 404, error: { code: -32601, message: 'Method not found' } });
  });
});

describe('misbehave', () => {
  it('wrong chain id and malformed hash in createauxblock, until set back', async () => {
    const daemon = await start();
    daemon.misbehave('wrong-chain-id');
    expect((await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH])).chainid).not.toBe(98);
    daemon.misbehave('malformed-hash');
    const malformed = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    expect(malformed.hash).not.toMatch(/^[0-9a-f]{64}$/);
    daemon.misbehave('none');
    const fine = await call<AuxBlockAnswer>(daemon, 'createauxblock', [P2PKH]);
    expect(fine).toMatchObject({ chainid: 98 });
    expect(fine.hash.startsWith(malformed.hash)).toBe(true);
  });

  it('down: connections are refused, as by a stopped node; back on the same port after', async () => {
    const daemon = await start();
    expect(await call(daemon, 'getblockcount')).toBe(0);
    daemon.misbehave('down');
    const failure = await fetch(daemon.url(), { method: 'POST', body: '{}' }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    daemon.mineElsewhere(); // the chain goes on meanwhile
    daemon.misbehave('none');
    expect(await call(daemon, 'getblockcount')).toBe(1);
  });
});

describe('basic auth', () => {
  it('is enforced when credentials are set', async () => {
    const daemon = await start({ credentials: 'pool:secret' });
    expect(daemon.url('pool:secret')).toMatch(/^http:\/\/pool:secret@127\.0\.0\.1:\d+\/$/);
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    for (const auth of [undefined, basic('pool:wrong')]) {
      const response = await fetch(daemon.url(), {
        method: 'POST',
        headers: auth ? { authorization: auth } : {},
        body: JSON.stringify({ id: 1, method: 'getblockcount', params: [] }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="jsonrpc"');
      expect(await response.text()).toBe('');
    }
    expect(await rpc(daemon, 'getblockcount', [], basic('pool:secret'))).toMatchObject({ status: 200, result: 0 });
  });
});
