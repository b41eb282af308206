import { EvmWallet } from '@lodestone/chain';
import { deployTestUsd, type EvmNode, startEvmNode, TEST_USD_DECIMALS } from '@lodestone/chain/testing';
import { type Database, walletSnapshots } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLog } from './testing.js';
import { snapshotWallets } from './walletSnapshots.js';

/**
 * The wallet-snapshots job reading real pool-signed wallets: EvmWallet for ETH and for a 6-decimal
 * ERC-20 (the USDC stand-in, TestUsd) on a real Hardhat 2 node, the pool's key holding both. Then the
 * node stops: the reads fail and the last good figures stay.
 */

const T1 = new Date('2026-05-06T10:00:30Z');
const T2 = new Date('2026-05-06T10:01:30Z');
const SUPPLY = 1_234_567n * 10n ** BigInt(TEST_USD_DECIMALS);

describe('wallet snapshots of EVM wallets on a real node', () => {
  let node: EvmNode;
  let database: Database;
  let poolKey: `0x${string}`;
  let token: `0x${string}`;
  beforeAll(async () => {
    // The database first: a node's idle keep-alive connection closes after a few seconds, and the
    // next call would find it closed.
    database = await createTestDatabase();
    node = await startEvmNode({ accounts: 1 });
    [poolKey] = node.fundedKeys as [`0x${string}`];
    // The pool's key deploys the token, so it holds the whole supply, and pays the deployment's gas in ETH.
    token = await deployTestUsd(node, { supply: SUPPLY, deployerKey: poolKey });
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    await database?.close();
  });

  it('writes the balance, the fee reserve and the address, and keeps them when the node is down', async () => {
    const common = {
      feeCoin: 'ETH',
      rpcUrl: node.url,
      privateKey: poolKey,
      chainId: node.chainId,
      confirmations: 2,
      maxFeePerGas: 100n * 10n ** 9n, // 100 gwei
    };
    const eth = new EvmWallet({ ...common, coin: 'ETH' });
    const usdc = new EvmWallet({ ...common, coin: 'USDC', token: { address: token, decimals: TEST_USD_DECIMALS } });
    const wallets = new Map([
      ['ETH', { wallet: eth, minBalance: 10n ** 17n }],
      ['USDC', { wallet: usdc, minBalance: 5_000_000n }],
    ]);
    const address = eth.address;
    expect(usdc.address).toBe(address);
    const ethHeld = BigInt((await node.rpc('eth_getBalance', [address, 'latest'])) as string);

    expect(await snapshotWallets(database.db, wallets, T1, recordingLog())).toMatchObject({ failed: [] });
    let rows = await walletSnapshots(database.db);
    const ethFee = await eth.feeEstimate(1);
    expect(rows.get('ETH')).toEqual({
      coin: 'ETH',
      address,
      demo: false,
      minBalance: 10n ** 17n,
      maxOutputs: 1,
      feeCoin: null,
      reading: { balance: ethHeld, feePerTransaction: ethFee, feeBalance: null, at: T1 },
      checkedAt: T1,
      error: null,
    });
    const usdcRow = rows.get('USDC');
    expect(usdcRow).toMatchObject({
      address,
      maxOutputs: 1,
      feeCoin: 'ETH',
      reading: { balance: SUPPLY, feeBalance: ethHeld, at: T1 },
      error: null,
    });
    // A token transfer may cost more gas than an ether transfer (DEFAULT_TOKEN_GAS_LIMIT): its own estimate.
    expect(usdcRow?.reading?.feePerTransaction).toBe(await usdc.feeEstimate(1));
    expect(usdcRow?.reading?.feePerTransaction ?? 0n).toBeGreaterThan(ethFee);

    await node.stop();
    const log = recordingLog();
    expect(await snapshotWallets(database.db, wallets, T2, log)).toMatchObject({ read: [] });
    rows = await walletSnapshots(database.db);
    for (const coin of ['ETH', 'USDC']) {
      const row = rows.get(coin);
      expect(row?.reading?.at, coin).toEqual(T1);
      expect(row?.checkedAt, coin).toEqual(T2);
      expect(row?.error, coin).toMatch(/\S/);
    }
    expect(rows.get('USDC')?.reading).toMatchObject({ balance: SUPPLY, feeBalance: ethHeld });
    expect(log.entries.filter((e) => e.level === 'warn')).toHaveLength(2);
  }, 60_000);
});
