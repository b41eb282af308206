import { exactDecimalFetch, RpcClient } from '@lodestone/chain';
import { type LitecoinRegtest, startLitecoinRegtest } from '@lodestone/chain/testing';
import { type Database, networkBlocksBetween } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import { amountToUnits } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitcoin } from '../chains/bitcoin/index.js';
import { bitcoinCoinSetting } from '../chains/bitcoin/settings.js';
import type { NetworkFeeReader } from '../chains/chain.js';
import { readFeeDay } from './networkFees.js';

/*
 * The fee job against a real node: litecoind -regtest mines blocks holding transactions the wallet
 * paid fees for, and the fee day the job sums through getblockstats must equal what the wallet says
 * it paid (gettransaction, read as exact decimals) — across incremental runs and a reorganisation.
 */

describe('network fees from litecoind -regtest', () => {
  let net: LitecoinRegtest;
  let database: Database;
  let wallet: RpcClient;
  let reader: NetworkFeeReader;
  const asked: number[] = [];
  /** Σ fees the wallet paid, smallest units, for every transaction it sent. */
  let paid = 0n;

  /** Sends `count` payments from the pool's wallet and mines them in one block. */
  const payAndMine = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const to = (await wallet.call('getnewaddress', ['', 'bech32'])) as string;
      const txid = (await wallet.call('sendtoaddress', [to, `0.${i + 1}`])) as string;
      const tx = (await wallet.call('gettransaction', [txid])) as { fee: string };
      paid += -amountToUnits(tx.fee, 8);
    }
    await net.generate(1);
  };
  const tip = () => net.miner.rpc.getBlockCount();
  const soon = () => new Date(Date.now() + 60_000);

  beforeAll(async () => {
    net = await startLitecoinRegtest();
    await net.generate(101);
    wallet = new RpcClient({ url: `${net.miner.rpcUrl}wallet/pool`, fetch: exactDecimalFetch() });
    database = await createTestDatabase();
    const setting = bitcoinCoinSetting.parse({
      ticker: 'LTC',
      algorithm: 'scrypt',
      daemons: [net.miner.rpcUrl],
      pool_address: net.poolAddress,
    });
    const nodeReader = bitcoin.coins?.coin(setting).networkFees?.();
    if (!nodeReader) throw new Error('the bitcoin chain reads no network fees');
    reader = {
      tipHeight: () => nodeReader.tipHeight(),
      block: (height) => {
        asked.push(height);
        return nodeReader.block(height);
      },
    };
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await net?.stop();
  });

  it('sums the day’s fees as the wallet paid them, reading only new blocks on later runs', async () => {
    await payAndMine(3);
    await payAndMine(2);
    expect(paid).toBeGreaterThan(0n);
    const first = await readFeeDay(database.db, { ticker: 'LTC', reader }, soon());
    const height = await tip();
    // Every block but the genesis block (stamped in 2011) was mined in the last minutes.
    expect(first).toMatchObject({ day: { blocks: height, firstHeight: 1, lastHeight: height, totalFees: paid } });
    expect(asked).toHaveLength(height);

    asked.length = 0;
    await payAndMine(1);
    await net.generate(1);
    const second = await readFeeDay(database.db, { ticker: 'LTC', reader }, soon());
    // The two new blocks, and the one below them whose hash the first run stored.
    expect(asked).toEqual([height + 2, height + 1, height]);
    expect(second).toMatchObject({ day: { blocks: height + 2, lastHeight: height + 2, totalFees: paid } });
  });

  it('reads a reorganised chain again down to where it agrees with what is stored', async () => {
    const top = await tip();
    const replaced = await net.miner.rpc.getBlockHash(top - 1);
    // The last two blocks leave the best chain; their transactions go back to the mempool and are
    // mined again in the three blocks that replace them.
    await net.miner.client.call('invalidateblock', [replaced]);
    // Paid to another address than before, so no new block is the invalidated one again.
    await net.miner.client.call('generatetoaddress', [3, net.poolAddress], { timeoutMs: 60_000 });
    asked.length = 0;
    const reading = await readFeeDay(database.db, { ticker: 'LTC', reader }, soon());
    expect(asked).toEqual([top + 1, top, top - 1, top - 2]);
    expect(reading).toMatchObject({ day: { blocks: top + 1, lastHeight: top + 1, totalFees: paid } });
    const stored = await networkBlocksBetween(database.db, 'LTC', new Date(0), soon());
    for (const block of stored.slice(-4)) {
      expect(block.hash).toBe(await net.miner.rpc.getBlockHash(block.height));
    }
  });
});
