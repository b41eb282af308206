import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BitcoinWallet, CkbWallet, EvmWallet, KadenaWallet, KaspaWallet } from '@lodestone/chain';
import type { Coin } from '@lodestone/db';
import { ALGORITHM_KEYS } from '@lodestone/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { coinSetting, walletSetting } from '../config/settings.js';
import { BitcoinMiner } from './bitcoin/miner.js';
import type { ChainModule } from './chain.js';
import { CkbMiner } from './ckb/miner.js';
import { KadenaMiner } from './kadena/miner.js';
import { KaspaMiner } from './kaspa/miner.js';
import { CHAINS, minerDialectFor, payoutWalletFor, WALLET_KINDS } from './registry.js';

const chains: readonly ChainModule[] = CHAINS;

/**
 * The values a schema accepts for one field, as zod records them for its discriminated unions (an
 * internal of zod 4: were it to move, these tests fail rather than pass unchecked).
 */
function valuesOf(schema: unknown, field: string): unknown[] {
  const values = (schema as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[field];
  if (values === undefined) throw new Error(`the schema records no values of ${field}`);
  return [...values].sort();
}

// The registry hands each module only settings and algorithms of its own: these are what make that so.
describe('the chain registry', () => {
  it('has exactly one chain mining each algorithm, with its coins, demo network and miner', () => {
    for (const algorithm of ALGORITHM_KEYS) {
      const mining = chains.filter((chain) => chain.algorithms.includes(algorithm));
      expect(
        mining.map((chain) => chain.name),
        algorithm,
      ).toHaveLength(1);
      const [chain] = mining;
      expect(chain?.coins && chain.demo && chain.miner, algorithm).toBeTruthy();
    }
    expect(new Set(chains.map((chain) => chain.name)).size).toBe(chains.length);
  });

  it("gives each chain's coins entry exactly that chain's algorithms", () => {
    for (const chain of chains.filter((c) => c.coins)) {
      expect(valuesOf(chain.coins?.setting, 'algorithm'), chain.name).toEqual([...chain.algorithms].sort());
    }
    expect(valuesOf(coinSetting, 'algorithm')).toEqual([...ALGORITHM_KEYS].sort());
  });

  it("names each chain's wallets entry by the chain's name", () => {
    for (const chain of chains.filter((c) => c.wallets)) {
      // Bitcoin's may leave `kind` out (undefined), as the first wallets entries did.
      const kinds = valuesOf(chain.wallets?.setting, 'kind').filter((kind) => kind !== undefined);
      expect(kinds, chain.name).toEqual([chain.name]);
    }
    expect(WALLET_KINDS).toEqual(['bitcoin', 'ckb', 'kaspa', 'kadena', 'evm']);
  });

  it("gives each algorithm its own chain's miner", () => {
    const miners = ALGORITHM_KEYS.map((algorithm) => [algorithm, minerDialectFor(algorithm)?.constructor]);
    expect(Object.fromEntries(miners)).toEqual({
      scrypt: BitcoinMiner,
      sha256: BitcoinMiner,
      x11: BitcoinMiner,
      eaglesong: CkbMiner,
      blake2s: KadenaMiner,
      kheavyhash: KaspaMiner,
    });
  });

  describe('wallets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lodestone-registry-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, 'ab'.repeat(32));
    chmodSync(keyFile, 0o600);
    // The chains read only a coin's ticker and decimals.
    const coin = (ticker: string, decimals: number) => ({ ticker, decimals }) as Coin;

    it("makes each kind's wallet by its chain, bitcoin when the kind is left out", () => {
      const made = (entry: object, ticker: string, decimals: number) =>
        payoutWalletFor(walletSetting.parse(entry), coin(ticker, decimals)).wallet.constructor;
      const rpc = 'http://127.0.0.1:1';
      expect(made({ ticker: 'LTC', rpc_url: rpc }, 'LTC', 8)).toBe(BitcoinWallet);
      expect(made({ kind: 'ckb', rpc_url: rpc, key_file: keyFile }, 'CKB', 8)).toBe(CkbWallet);
      expect(made({ kind: 'kaspa', url: 'ws://127.0.0.1:1', key_file: keyFile }, 'KAS', 8)).toBe(KaspaWallet);
      const kadena = { kind: 'kadena', url: rpc, network_id: 'mainnet01', chain_id: 0, key_file: keyFile };
      expect(made(kadena, 'KDA', 12)).toBe(KadenaWallet);
      const evm = { kind: 'evm', ticker: 'ETH', rpc_url: rpc, chain_id: 1, key_file: keyFile, max_fee_gwei: '50' };
      expect(made(evm, 'ETH', 18)).toBe(EvmWallet);
    });

    it('refuses a kind no chain pays from, naming the kinds', () => {
      const parsed = walletSetting.safeParse({ kind: 'monero', ticker: 'XMR' });
      expect(parsed.error?.issues[0]?.message).toBe('expected kind bitcoin, ckb, kaspa, kadena or evm');
    });
  });
});
