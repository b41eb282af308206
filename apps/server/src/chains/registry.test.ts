import { ALGORITHM_KEYS } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { coinSetting, walletSetting } from '../config/settings.js';
import { CHAIN_MODULES, minerDialectFor, WALLET_KINDS } from './registry.js';

/** The values a setting's schema accepts for one of its fields (zod's own discriminator record). */
function valuesOf(schema: { _zod: { propValues?: Record<string, Set<unknown>> } }, field: string): unknown[] {
  return [...(schema._zod.propValues?.[field] ?? [])].sort();
}

// The registry hands each module only settings and algorithms of its own: these are what make that so.
describe('the chain registry', () => {
  it('has exactly one chain mining each algorithm, with its coins, demo network and miner', () => {
    for (const algorithm of ALGORITHM_KEYS) {
      const mining = CHAIN_MODULES.filter((chain) => chain.algorithms.includes(algorithm));
      expect(
        mining.map((chain) => chain.name),
        algorithm,
      ).toHaveLength(1);
      const [chain] = mining;
      expect(chain?.coins && chain.demo && chain.miner, algorithm).toBeTruthy();
      expect(minerDialectFor(algorithm)).toBeDefined();
    }
  });

  it("gives each chain's coins entry exactly that chain's algorithms", () => {
    for (const chain of CHAIN_MODULES.filter((c) => c.coins)) {
      expect(valuesOf(chain.coins?.setting as never, 'algorithm'), chain.name).toEqual([...chain.algorithms].sort());
    }
    expect(valuesOf(coinSetting as never, 'algorithm')).toEqual([...ALGORITHM_KEYS].sort());
  });

  it("names each chain's wallets entry by the chain's name", () => {
    for (const chain of CHAIN_MODULES.filter((c) => c.wallets)) {
      // Bitcoin's may leave `kind` out (undefined), as the first wallets entries did.
      const kinds = valuesOf(chain.wallets?.setting as never, 'kind').filter((kind) => kind !== undefined);
      expect(kinds, chain.name).toEqual([chain.name]);
    }
    expect(WALLET_KINDS).toEqual(['bitcoin', 'ckb', 'kaspa', 'kadena', 'evm']);
  });

  it('refuses a wallets entry of a kind no chain pays from, naming the kinds', () => {
    const parsed = walletSetting.safeParse({ kind: 'monero', ticker: 'XMR' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('expected kind bitcoin, ckb, kaspa, kadena, evm');
  });
});
