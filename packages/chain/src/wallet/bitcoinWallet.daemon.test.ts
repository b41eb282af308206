import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../rpc/client.js';
import { type LitecoinRegtest, startLitecoinRegtest } from '../testing/regtest.js';
import { exactDecimalFetch, unitsToDecimal } from './amounts.js';
import { BitcoinWallet } from './bitcoinWallet.js';
import { blockStatus } from './blockStatus.js';
import { WalletError } from './wallet.js';

/**
 * BitcoinWallet and blockStatus against litecoind -regtest: the miner's wallet pays addresses of the
 * peer's wallet with sendmany, and both daemons' own accounts of the payment (read as their exact text)
 * must match the bigints we sent.
 */

/** A valid bitcoin mainnet address: well formed, but not for this network. */
const FOREIGN_ADDRESS = 'bc1q09vm5lfy0j5reeulh4x5752q25uqqvz34hufdl';

async function walletError(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  return error as WalletError;
}

describe('BitcoinWallet on litecoind -regtest', () => {
  let net: LitecoinRegtest;
  let wallet: BitcoinWallet;
  /** The daemons' wallets read with amounts as the daemon's own text, to compare digit for digit. */
  let minerExact: RpcClient;
  let peerExact: RpcClient;

  beforeAll(async () => {
    net = await startLitecoinRegtest();
    // Coinbase outputs mature after 100 blocks: this leaves the miner's wallet two spendable rewards.
    await net.generate(101);
    await net.peer.client.call('createwallet', ['recipients']);
    const minerWalletUrl = `${net.miner.rpcUrl}wallet/pool`;
    wallet = new BitcoinWallet({ coin: 'LTC', decimals: 8, rpcUrl: minerWalletUrl });
    minerExact = new RpcClient({ url: minerWalletUrl, fetch: exactDecimalFetch() });
    peerExact = new RpcClient({ url: net.peer.rpcUrl, fetch: exactDecimalFetch() });
  });

  afterAll(async () => {
    await net?.stop();
  });

  it('pays every output exactly in one transaction that findByComment finds again', async () => {
    const recipients = await Promise.all(
      ['bech32', 'legacy', 'p2sh-segwit'].map(
        async (type) => (await net.peer.client.call('getnewaddress', ['', type])) as string,
      ),
    );
    // None of these is exact as a double: 0.12345678, 1.00000001, 29.99999999.
    const outputs = [12_345_678n, 100_000_001n, 2_999_999_999n].map((amount, i) => ({
      address: recipients[i] as string,
      amount,
    }));
    const total = outputs.reduce((sum, o) => sum + o.amount, 0n);
    const key = `payout:${randomUUID()}`;
    const before = await wallet.balance();
    expect(before).toBeGreaterThan(total);

    const sent = await wallet.sendMany(outputs, key);

    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    expect((await net.miner.client.call('getrawmempool')) as string[]).toContain(sent.txid);
    expect(sent.fee).toBeGreaterThan(0n);
    const reported = (await minerExact.call('gettransaction', [sent.txid])) as { fee: string; comment: string };
    expect(reported.fee).toBe(`-${unitsToDecimal(sent.fee, 8)}`);
    expect(reported.comment).toBe(key);
    // The change is the wallet's own unconfirmed output, which getbalances counts as trusted at once.
    expect(await wallet.balance()).toBe(before - total - sent.fee);

    await net.generate(1);
    await net.sync();
    expect(await wallet.transaction(sent.txid)).toEqual({
      txid: sent.txid,
      confirmations: 1,
      comment: key,
      amount: total,
      fee: sent.fee,
    });
    for (const { address, amount } of outputs) {
      expect(await peerExact.call('getreceivedbyaddress', [address, 1])).toBe(unitsToDecimal(amount, 8));
    }

    expect(await wallet.findByComment(key)).toMatchObject({ txid: sent.txid, confirmations: 1, amount: total });
    expect(await wallet.findByComment('other')).toBeUndefined();
    expect(await wallet.transaction(randomBytes(32).toString('hex'))).toBeUndefined();
  });

  it('refuses to spend more than the balance and creates no transaction', async () => {
    const recipient = (await net.peer.client.call('getnewaddress', ['', 'bech32'])) as string;
    const balance = await wallet.balance();
    const walletInfo = async () => (await net.miner.client.call('getwalletinfo')) as { txcount: number };
    const txcount = (await walletInfo()).txcount;
    const mempool = (await net.miner.client.call('getrawmempool')) as string[];
    const key = `payout:${randomUUID()}`;

    const error = await walletError(wallet.sendMany([{ address: recipient, amount: balance + 1n }], key));

    expect(error).toMatchObject({ kind: 'insufficient-funds', mayHaveSent: false, rpcCode: -6 });
    expect((await walletInfo()).txcount).toBe(txcount);
    expect(await net.miner.client.call('getrawmempool')).toEqual(mempool);
    expect(await wallet.findByComment(key)).toBeUndefined();
    expect(await wallet.balance()).toBe(balance);
  });

  it('tells an address of another network from a good one', async () => {
    const good = (await net.peer.client.call('getnewaddress', ['', 'bech32'])) as string;
    expect(await wallet.validateAddress(good)).toBe(true);
    expect(await wallet.validateAddress(FOREIGN_ADDRESS)).toBe(false);
    expect(await wallet.validateAddress('rltc1qnotanaddress')).toBe(false);
    const error = await walletError(
      wallet.sendMany(
        [
          { address: good, amount: 100_000n },
          { address: FOREIGN_ADDRESS, amount: 100_000n },
        ],
        `payout:${randomUUID()}`,
      ),
    );
    expect(error).toMatchObject({ kind: 'invalid-address', mayHaveSent: false, rpcCode: -5 });
  });

  it('follows a found block from the main chain to orphaned, and knows an unknown hash', async () => {
    const rpc = net.miner.client;
    const [first, second] = (await net.generate(2)) as [string, string];
    const height = (await rpc.call('getblockcount')) as number;
    expect(await blockStatus(rpc, first)).toEqual({ kind: 'in-main-chain', confirmations: 2, height: height - 1 });
    expect(await blockStatus(rpc, second)).toEqual({ kind: 'in-main-chain', confirmations: 1, height });
    await net.generate(1);
    expect(await blockStatus(rpc, first)).toMatchObject({ kind: 'in-main-chain', confirmations: 3 });

    await rpc.call('invalidateblock', [first]);
    expect(await blockStatus(rpc, first)).toEqual({ kind: 'orphaned', height: height - 1 });
    expect(await blockStatus(rpc, second)).toEqual({ kind: 'orphaned', height });
    await rpc.call('reconsiderblock', [first]);
    expect(await blockStatus(rpc, first)).toMatchObject({ kind: 'in-main-chain', confirmations: 3 });

    expect(await blockStatus(rpc, randomBytes(32).toString('hex'))).toEqual({ kind: 'not-found' });
  });
});
