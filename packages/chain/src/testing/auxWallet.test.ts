/**
 * The dogecoind stand-in's wallet, end to end: aux blocks mined to its addresses with proofs built by
 * hand here, their coinbases maturing, and DOGE paid out of them — read over HTTP with plain fetch (as
 * exact text where amounts are concerned) and through the pool's own BitcoinWallet.
 */
import { scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { base58CheckEncode } from '../bitcoin/address.js';
import { sha256d } from '../bitcoin/hash.js';
import { BitcoinWallet } from '../wallet/bitcoinWallet.js';
import { WalletError } from '../wallet/wallet.js';
import { type AuxDaemon, type AuxDaemonOptions, startAuxDaemon } from './dogecoind.js';

// Dogecoin regtest addresses of qa/rpc-tests/createauxblock.py, outside the stand-in's wallet.
const ALICE = 'mmMP9oKFdADezYzduwJFcLNmmi8JHUKdx9';
const BOB = '2Mwvgpd2H7wDPXx8jWe3Vqiciix6JqSbsyz';
const MAINNET_ADDRESS = base58CheckEncode(Buffer.concat([Buffer.from([30]), Buffer.alloc(20, 0x33)]));
/** 12,345.67891234 DOGE: a coinbase whose digits no double holds exactly. */
const SUBSIDY = 1_234_567_891_234n;
const NOW = 1_700_000_000;

const daemons: AuxDaemon[] = [];
async function start(options: AuxDaemonOptions = {}): Promise<AuxDaemon> {
  const daemon = await startAuxDaemon({ now: () => NOW, subsidy: SUBSIDY, ...options });
  daemons.push(daemon);
  return daemon;
}
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.close();
});

/** One call with the body written by hand; the answer as text, so amounts can be read digit for digit. */
async function send(daemon: AuxDaemon, method: string, params: string): Promise<{ status: number; text: string }> {
  const response = await fetch(daemon.url(), {
    method: 'POST',
    body: `{"jsonrpc":"1.0","id":"t","method":"${method}","params":${params}}`,
  });
  return { status: response.status, text: await response.text() };
}

async function call<T>(daemon: AuxDaemon, method: string, params: unknown[] = []): Promise<T> {
  const { status, text } = await send(daemon, method, JSON.stringify(params));
  const body = JSON.parse(text) as { result: T; error: unknown };
  expect(body.error).toBeNull();
  expect(status).toBe(200);
  return body.result;
}

async function refusal(daemon: AuxDaemon, method: string, params: string): Promise<unknown> {
  const { status, text } = await send(daemon, method, params);
  expect(status).toBe(500);
  return (JSON.parse(text) as { error: unknown }).error;
}

/** The answer's `result` as the text the daemon wrote. */
async function resultText(daemon: AuxDaemon, method: string, params: string): Promise<string> {
  const { text } = await send(daemon, method, params);
  const match = /^\{"result":(.*),"error":null,"id":"t"\}\n$/s.exec(text);
  if (!match) throw new Error(`unexpected answer ${text}`);
  return match[1] as string;
}

// ---------------------------------------------------------------------------------------------
// Mining an aux block: the simplest merged-mining proof, built here from the format (a parent coinbase
// whose script commits to the aux hash as a one-leaf chain tree, a scrypt parent header meeting the
// aux target), then submitted.

const le32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(n >>> 0);
  return out;
};

function proofFor(auxHash: string, targetHex: string): string {
  const commitment = Buffer.concat([Buffer.from('fabe6d6d', 'hex'), Buffer.from(auxHash, 'hex'), le32(1), le32(0)]);
  const scriptSig = Buffer.concat([Buffer.from([commitment.length]), commitment]);
  const coinbase = Buffer.concat([
    le32(1),
    Buffer.from([1]),
    Buffer.alloc(32),
    le32(0xffffffff),
    Buffer.from([scriptSig.length]),
    scriptSig,
    le32(0xffffffff),
    Buffer.from([1]),
    Buffer.alloc(8),
    Buffer.from([0]),
    le32(0),
  ]);
  const header = Buffer.concat([le32(0x20000000), Buffer.alloc(32), sha256d(coinbase), le32(NOW), le32(0), le32(0)]);
  const target = BigInt(`0x${Buffer.from(targetHex, 'hex').reverse().toString('hex')}`);
  const pow = () => BigInt(`0x${scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 }).reverse().toString('hex')}`);
  for (let nonce = 1; pow() > target; nonce++) header.writeUInt32LE(nonce, 76);
  // coinbase, hashBlock, empty coinbase branch and its index, empty chain branch and its index, header
  return Buffer.concat([
    coinbase,
    Buffer.alloc(32),
    Buffer.from([0]),
    le32(0),
    Buffer.from([0]),
    le32(0),
    header,
  ]).toString('hex');
}

/** An aux block paying `address` (createauxblock), or the wallet's mining key (getauxblock). */
async function mine(daemon: AuxDaemon, address?: string): Promise<string> {
  const block = await call<{ hash: string; target: string }>(
    daemon,
    address ? 'createauxblock' : 'getauxblock',
    address ? [address] : [],
  );
  const proof = proofFor(block.hash, block.target);
  expect(await call(daemon, address ? 'submitauxblock' : 'getauxblock', [block.hash, proof])).toBe(true);
  return block.hash;
}

// ---------------------------------------------------------------------------------------------
// Reading a legacy transaction, independently of the stand-in's writer

interface Tx {
  version: number;
  inputs: { txid: string; vout: number; scriptSig: Buffer; sequence: number }[];
  outputs: { value: bigint; script: Buffer }[];
  lockTime: number;
}

function readTx(hex: string): Tx {
  const b = Buffer.from(hex, 'hex');
  let at = 0;
  const take = (n: number) => {
    at += n;
    return b.subarray(at - n, at);
  };
  // Every count and script here is under 0xfd bytes: one-byte varints.
  const small = () => take(1)[0] as number;
  const version = take(4).readInt32LE();
  const inputs = Array.from({ length: small() }, () => ({
    txid: Buffer.from(take(32)).reverse().toString('hex'),
    vout: take(4).readUInt32LE(),
    scriptSig: take(small()),
    sequence: take(4).readUInt32LE(),
  }));
  const outputs = Array.from({ length: small() }, () => ({ value: take(8).readBigUInt64LE(), script: take(small()) }));
  const lockTime = take(4).readUInt32LE();
  expect(at).toBe(b.length);
  return { version, inputs, outputs, lockTime };
}

const txidOf = (hex: string) =>
  Buffer.from(sha256d(Buffer.from(hex, 'hex')))
    .reverse()
    .toString('hex');

// ---------------------------------------------------------------------------------------------

describe('coinbases of accepted aux blocks', () => {
  it('become wallet coins that count, to the koinu, once 61 blocks deep (regtest maturity 60)', async () => {
    const daemon = await start();
    const address = await call<string>(daemon, 'getnewaddress');
    expect(address).toMatch(/^[mn]/);
    expect(await call(daemon, 'validateaddress', [address])).toMatchObject({
      isvalid: true,
      ismine: true,
      account: '',
    });

    await mine(daemon, address);
    await mine(daemon, address);
    expect(await resultText(daemon, 'getbalance', '["*",1]')).toBe('0.00000000');
    const immature = await call<{ category: string; amount: number; confirmations: number }[]>(
      daemon,
      'listtransactions',
      ['*', 10, 0],
    );
    expect(immature.map((e) => [e.category, e.confirmations])).toEqual([
      ['immature', 2],
      ['immature', 1],
    ]);
    expect(await resultText(daemon, 'listtransactions', '["*",1,0]')).toContain('"amount":12345.67891234,');

    // The first coinbase is 60 blocks deep: still immature (GetBlocksToMaturity = 60 + 1 − depth).
    daemon.mineElsewhere(58);
    expect(await resultText(daemon, 'getbalance', '["*",1]')).toBe('0.00000000');
    daemon.mineElsewhere();
    expect(await resultText(daemon, 'getbalance', '["*",1]')).toBe('12345.67891234');
    expect(await resultText(daemon, 'getbalance', '[]')).toBe('12345.67891234');
    daemon.mineElsewhere();
    expect(await resultText(daemon, 'getbalance', '["*",1]')).toBe('24691.35782468');
    const entries = await call<{ category: string; address: string; txid: string }[]>(daemon, 'listtransactions');
    expect(entries.map((e) => e.category)).toEqual(['generate', 'generate']);
    expect(entries.every((e) => e.address === address)).toBe(true);

    // The coinbase as gettransaction shows it: generated, confirmed in the block that was accepted.
    const [accepted] = daemon.accepted();
    const tx = await call<Record<string, unknown>>(daemon, 'gettransaction', [entries[0]?.txid]);
    expect(tx).toMatchObject({
      amount: 12345.67891234,
      confirmations: 62,
      generated: true,
      blockhash: accepted?.hash,
      blockindex: 0,
      details: [{ account: '', address, category: 'generate', amount: 12345.67891234, vout: 0 }],
    });
    expect(tx).not.toHaveProperty('fee');
    expect(txidOf(tx.hex as string)).toBe(entries[0]?.txid);
  });

  it('getauxblock pays the wallet’s mining key; getbalances is not a 1.14 method', async () => {
    const daemon = await start({ coinbaseMaturity: 3 });
    await mine(daemon);
    const [block] = daemon.accepted();
    expect(await call(daemon, 'validateaddress', [block?.payoutAddress])).toMatchObject({ ismine: true });
    // A key outside the address book: no account, while getnewaddress's keys have one.
    expect(await call(daemon, 'validateaddress', [block?.payoutAddress])).not.toHaveProperty('account');
    daemon.mineElsewhere(3);
    expect(await resultText(daemon, 'getbalance', '[]')).toBe('12345.67891234');
    const missing = await send(daemon, 'getbalances', '[]');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error).toEqual({ code: -32601, message: 'Method not found' });
  });

  it('mature on mainnet after 241 blocks, and its addresses are mainnet’s', async () => {
    const daemon = await start({ network: 'mainnet' });
    const address = daemon.walletAddress();
    expect(address).toMatch(/^D/);
    await mine(daemon, address);
    daemon.mineElsewhere(239);
    expect(await resultText(daemon, 'getbalance', '[]')).toBe('0.00000000');
    daemon.mineElsewhere();
    expect(await resultText(daemon, 'getbalance', '[]')).toBe('12345.67891234');
  });
});

describe('sendmany', () => {
  /** A wallet with one mature coinbase of SUBSIDY paid to a P2PKH address of its own. */
  async function funded(options: AuxDaemonOptions = {}): Promise<{ daemon: AuxDaemon; coinbase: string }> {
    const daemon = await start({ coinbaseMaturity: 5, ...options });
    const hash = await mine(daemon, daemon.walletAddress());
    daemon.mineElsewhere(5);
    const block = await call<{ tx: string[] }>(daemon, 'getblock', [hash]);
    return { daemon, coinbase: block.tx[0] as string };
  }

  it('pays each amount exactly, with change and a fee of 0.01 DOGE per 1000 bytes, and the next block confirms it', async () => {
    const { daemon, coinbase } = await funded();
    // Neither amount is exact as a double; the body carries them as written.
    const txid = JSON.parse(
      (await send(daemon, 'sendmany', `["",{"${ALICE}":1234.56789012,"${BOB}":0.98765432},1,"payout 7"]`)).text,
    ).result as string;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);

    const gettx = await resultText(daemon, 'gettransaction', `["${txid}"]`);
    const tx = JSON.parse(gettx) as Record<string, unknown> & { hex: string; details: Record<string, unknown>[] };
    expect(txidOf(tx.hex)).toBe(txid);
    const raw = readTx(tx.hex);
    // One P2PKH input (148 bytes with a signature), three P2PKH/P2SH outputs: 10 + 148 + 34 + 32 + 34 bytes.
    expect(tx.hex.length / 2).toBe(258);
    const fee = 258_000n;
    expect(gettx).toContain('"amount":-1235.55554444,"fee":-0.00258000,"confirmations":0,');
    expect(tx).toMatchObject({ trusted: true, txid, comment: 'payout 7', 'bip125-replaceable': 'no' });
    expect(tx).not.toHaveProperty('blockhash');
    expect(tx.details).toEqual([
      {
        account: '',
        address: ALICE,
        category: 'send',
        amount: -1234.56789012,
        vout: 0,
        fee: -0.00258,
        abandoned: false,
      },
      { account: '', address: BOB, category: 'send', amount: -0.98765432, vout: 1, fee: -0.00258, abandoned: false },
    ]);
    expect(gettx).toContain('"amount":-0.98765432,');

    // The transaction itself: version 1, the coinbase spent, the amounts, the change, nLockTime = tip.
    expect(raw.version).toBe(1);
    expect(raw.inputs).toHaveLength(1);
    expect(raw.inputs[0]).toMatchObject({ txid: coinbase, vout: 0, sequence: 0xfffffffe });
    expect(raw.inputs[0]?.scriptSig.length).toBe(107);
    expect(raw.outputs.map((o) => o.value)).toEqual([123_456_789_012n, 98_765_432n, SUBSIDY - 123_555_554_444n - fee]);
    expect(raw.outputs[0]?.script.toString('hex')).toBe('76a91440015860f45d48eeeb2224dce3ad94ba91763e1e88ac');
    expect(raw.lockTime).toBe(daemon.height());
    const change = base58CheckEncode(
      Buffer.concat([Buffer.from([111]), raw.outputs[2]?.script.subarray(3, 23) ?? Buffer.alloc(0)]),
    );
    expect(await call(daemon, 'validateaddress', [change])).toMatchObject({ ismine: true });

    expect(daemon.payments()).toEqual([
      {
        txid,
        outputs: [
          { address: ALICE, amount: 123_456_789_012n },
          { address: BOB, amount: 98_765_432n },
        ],
        fee,
        comment: 'payout 7',
        confirmations: 0,
      },
    ]);
    // Both balances lose amounts + fee at once: the change is our own, trusted.
    expect(await resultText(daemon, 'getbalance', '["*",1]')).toBe('11110.12078790');
    expect(await resultText(daemon, 'getbalance', '[]')).toBe('11110.12078790');

    daemon.mineElsewhere();
    const block = await call<{ tx: string[]; merkleroot: string }>(daemon, 'getblock', [daemon.tipHash()]);
    expect(block.tx[1]).toBe(txid);
    const leaves = block.tx.map((t) => Buffer.from(t, 'hex').reverse());
    expect(block.merkleroot).toBe(
      Buffer.from(sha256d(Buffer.concat(leaves)))
        .reverse()
        .toString('hex'),
    );
    expect(await call(daemon, 'gettransaction', [txid])).toMatchObject({
      confirmations: 1,
      blockhash: daemon.tipHash(),
      blockindex: 1,
    });
    expect(daemon.payments()[0]?.confirmations).toBe(1);
    expect(await resultText(daemon, 'getbalance', '["*",1]')).toBe('11110.12078790');
  });

  it('lists oldest to newest, a transaction’s own entries reversed, as Bitcoin Core 0.14 does', async () => {
    const { daemon } = await funded();
    const txid = await call<string>(daemon, 'sendmany', ['', { [ALICE]: 1, [BOB]: 2 }, 1, 'batch 1']);
    const all = await call<Record<string, unknown>[]>(daemon, 'listtransactions', ['*', 10, 0]);
    expect(all.map((e) => [e.category, e.address === BOB ? 'bob' : e.address === ALICE ? 'alice' : 'us'])).toEqual([
      ['generate', 'us'],
      ['send', 'bob'],
      ['send', 'alice'],
    ]);
    expect(all[2]).toMatchObject({ txid, comment: 'batch 1', amount: -1, vout: 0, fee: -0.00258, confirmations: 0 });
    // count and skip count entries from the newest.
    const newest = await call<Record<string, unknown>[]>(daemon, 'listtransactions', ['*', 1, 0]);
    expect(newest).toEqual([all[2]]);
    expect(await call(daemon, 'listtransactions', ['*', 2, 1])).toEqual(all.slice(0, 2));
    expect(await refusal(daemon, 'listtransactions', '["*",-1]')).toEqual({ code: -8, message: 'Negative count' });
    expect(await refusal(daemon, 'listtransactions', '["*",1,-1]')).toEqual({ code: -8, message: 'Negative from' });
  });

  it('spends its own unconfirmed change when nothing confirmed is left', async () => {
    const { daemon } = await funded();
    const first = await call<string>(daemon, 'sendmany', ['', { [ALICE]: 100 }]);
    const second = await call<string>(daemon, 'sendmany', ['', { [BOB]: 200 }]);
    const spent = readTx((await call<{ hex: string }>(daemon, 'gettransaction', [second])).hex).inputs;
    expect(spent).toEqual([expect.objectContaining({ txid: first, vout: 1 })]);
    daemon.mineElsewhere();
    expect(daemon.payments().map((p) => [p.txid, p.confirmations])).toEqual([
      [first, 1],
      [second, 1],
    ]);
    const block = await call<{ tx: string[] }>(daemon, 'getblock', [daemon.tipHash()]);
    expect(block.tx.slice(1)).toEqual([first, second]);
  });

  it('refuses in Dogecoin 1.14’s words, and sends nothing', async () => {
    const { daemon } = await funded();
    const refused = (amounts: string, extra = '') => refusal(daemon, 'sendmany', `["",${amounts}${extra}]`);
    expect(await refused(`{"${MAINNET_ADDRESS}":1}`)).toEqual({
      code: -5,
      message: `Invalid Dogecoin address: ${MAINNET_ADDRESS}`,
    });
    expect(await refused(`{"${ALICE}":1,"${ALICE}":2}`)).toEqual({
      code: -8,
      message: `Invalid parameter, duplicated address: ${ALICE}`,
    });
    expect(await refused(`{"${ALICE}":1.000000001}`)).toEqual({ code: -3, message: 'Invalid amount' });
    expect(await refused(`{"${ALICE}":0}`)).toEqual({ code: -3, message: 'Invalid amount for send' });
    expect(await refused(`{"${ALICE}":-1}`)).toEqual({ code: -3, message: 'Amount out of range' });
    expect(await refused(`{"${ALICE}":true}`)).toEqual({ code: -3, message: 'Amount is not a number or string' });
    expect(await refused(`{"${ALICE}":0.00999999}`)).toEqual({ code: -6, message: 'Transaction amount too small' });
    expect(await refused(`{"${ALICE}":12345.67891235}`)).toEqual({
      code: -6,
      message: 'Account has insufficient funds',
    });
    // The whole balance passes the account check, but leaves nothing for the fee.
    expect(await refused(`{"${ALICE}":12345.67891234}`)).toEqual({ code: -6, message: 'Insufficient funds' });
    expect(await refusal(daemon, 'sendmany', `["*",{"${ALICE}":1}]`)).toEqual({
      code: -11,
      message: 'Invalid account name',
    });
    expect(await refused(`{"${ALICE}":1}`, ',1,"",["x"]')).toMatchObject({ code: -8 });
    expect(await refusal(daemon, 'gettransaction', `["${'ab'.repeat(32)}"]`)).toEqual({
      code: -5,
      message: 'Invalid or non-wallet transaction id',
    });
    expect(daemon.payments()).toEqual([]);
    // Zeros past the eighth decimal, an exponent and a string are amounts too. The wallet's own
    // address-book address is paid like any other (a 'send' that is also received).
    const own = daemon.walletAddress();
    const txid = await resultText(daemon, 'sendmany', `["",{"${ALICE}":1.000000000,"${BOB}":25e-1,"${own}":"0.5"}]`);
    const paid = daemon.payments()[0];
    expect(paid?.txid).toBe(JSON.parse(txid));
    expect(paid?.outputs).toEqual([
      { address: ALICE, amount: 100_000_000n },
      { address: BOB, amount: 250_000_000n },
      { address: own, amount: 50_000_000n },
    ]);
  });

  it('leaves immature coinbases unspendable', async () => {
    const daemon = await start();
    await mine(daemon, daemon.walletAddress());
    daemon.mineElsewhere(59); // 60 confirmations: one short
    expect(await refusal(daemon, 'sendmany', `["",{"${ALICE}":1}]`)).toEqual({
      code: -6,
      message: 'Account has insufficient funds',
    });
    daemon.mineElsewhere();
    expect(await call(daemon, 'sendmany', ['', { [ALICE]: 1 }])).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the pool’s BitcoinWallet against the stand-in', () => {
  it('reads the balance, pays, finds the payment again and sees it confirm', async () => {
    const daemon = await start({ coinbaseMaturity: 2 });
    await mine(daemon); // getauxblock: a <pubkey> OP_CHECKSIG coinbase
    await mine(daemon, daemon.walletAddress());
    daemon.mineElsewhere(2);
    const wallet = new BitcoinWallet({ coin: 'DOGE', rpcUrl: daemon.url() });
    expect(await wallet.balance()).toBe(2n * SUBSIDY);

    const outputs = [
      { address: ALICE, amount: 123_456_789_012n },
      { address: BOB, amount: 98_765_432n },
    ];
    const sent = await wallet.sendMany(outputs, 'payout 42');
    // The older coin is spent: the P2PK one, whose input is 114 bytes (one 72-byte signature push).
    expect(sent.fee).toBe(224_000n);
    expect(daemon.payments()).toEqual([
      { txid: sent.txid, outputs, fee: sent.fee, comment: 'payout 42', confirmations: 0 },
    ]);
    expect(await wallet.transaction(sent.txid)).toEqual({
      txid: sent.txid,
      confirmations: 0,
      amount: 123_555_554_444n,
      comment: 'payout 42',
      fee: 224_000n,
    });
    expect((await wallet.findByComment('payout 42'))?.txid).toBe(sent.txid);
    expect(await wallet.findByComment('payout 43')).toBeUndefined();
    expect(await wallet.balance()).toBe(2n * SUBSIDY - 123_555_554_444n - 224_000n);

    daemon.mineElsewhere();
    expect((await wallet.transaction(sent.txid))?.confirmations).toBe(1);
    expect((await wallet.findByComment('payout 42', new Date(NOW * 1000)))?.confirmations).toBe(1);
    expect(await wallet.transaction('cd'.repeat(32))).toBeUndefined();
    expect(await wallet.validateAddress(ALICE)).toBe(true);
    expect(await wallet.validateAddress(MAINNET_ADDRESS)).toBe(false);
  });

  it('gets Dogecoin’s refusals as the WalletError kinds a payout run acts on, nothing sent', async () => {
    const daemon = await start({ coinbaseMaturity: 2 });
    const wallet = new BitcoinWallet({ coin: 'DOGE', rpcUrl: daemon.url() });
    await mine(daemon, daemon.walletAddress()); // immature: not spendable yet
    const failure = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WalletError);
      return error as WalletError;
    };
    const poor = await failure(wallet.sendMany([{ address: ALICE, amount: 100_000_000n }], 'p1'));
    expect(poor).toMatchObject({ kind: 'insufficient-funds', rpcCode: -6, mayHaveSent: false });
    expect(poor.message).toContain('Account has insufficient funds');

    daemon.mineElsewhere(2);
    const foreign = await failure(wallet.sendMany([{ address: MAINNET_ADDRESS, amount: 100_000_000n }], 'p2'));
    expect(foreign).toMatchObject({ kind: 'invalid-address', rpcCode: -5, mayHaveSent: false });
    expect(foreign.message).toContain(`Invalid Dogecoin address: ${MAINNET_ADDRESS}`);
    const whole = await failure(wallet.sendMany([{ address: ALICE, amount: SUBSIDY }], 'p3'));
    expect(whole).toMatchObject({ kind: 'insufficient-funds', rpcCode: -6, mayHaveSent: false });
    expect(whole.message).toContain('Insufficient funds');
    const dust = await failure(wallet.sendMany([{ address: ALICE, amount: 999_999n }], 'p4'));
    expect(dust).toMatchObject({ kind: 'rejected', rpcCode: -6, mayHaveSent: false });
    expect(daemon.payments()).toEqual([]);
    expect(await wallet.balance()).toBe(SUBSIDY);
  });
});
