import { describe, expect, it } from 'vitest';
import { feeFor, feerateFromJson } from './feerate.js';
import { maxOutputsFor } from './kaspaWallet.js';
import { computeMass, type MassInput, type MassOutput, masses, minimumRelayFee, storageMass } from './mass.js';

/**
 * kaspanet/rusty-kaspa at commit 593399eb0187764c11f7f5c3729ae63d4c8e6505:
 * consensus/core/src/mass/mod.rs `test_storage_mass` (empty scripts: plurality 1) and
 * mining/src/mempool/check_transaction_standard.rs `test_calc_min_required_tx_relay_fee` (default fee rows).
 */
const C = 10n ** 12n;
const KAS = 100_000_000n;
const ins = (amounts: bigint[]): MassInput[] =>
  amounts.map((amount) => ({ amount, signatureScriptLength: 0, sigOpCount: 0, spentScriptLength: 0 }));
const outs = (values: bigint[]): MassOutput[] => values.map((value) => ({ value, scriptLength: 0 }));

describe('KIP-9 storage mass (rusty-kaspa test_storage_mass)', () => {
  it('3 inputs → 2 outputs: symmetric is free, asymmetric costs', () => {
    expect(storageMass(ins([100n, 200n, 300n]), outs([300n, 300n]))).toBe(0n);
    expect(storageMass(ins([100n, 200n, 300n]), outs([50n, 550n]))).toBe(C / 50n + C / 550n - 3n * (C / 200n));
  });

  it('more outputs than inputs', () => {
    const base = 10_000n * KAS;
    expect(storageMass(ins([base, base, base * 2n]), outs([base, base, base, base]))).toBe(4n);
    expect(storageMass(ins([base, base, base * 2n]), outs([10n * KAS, base, base, base]))).toBe(1003n);
    expect(storageMass(ins([base + 4n, base, base * 2n]), outs([base + 1n, base + 1n, base + 1n, base + 1n]))).toBe(0n);
  });

  it('the relaxed formula: 2 → 2 and 2 → 1', () => {
    expect(storageMass(ins([100n, 200n]), outs([50n, 250n]))).toBe(9_000_000_000n);
    expect(storageMass(ins([100n, 200n]), outs([100n, 200n]))).toBe(0n);
    expect(storageMass(ins([100n, 200n]), outs([50n]))).toBe(5_000_000_000n);
  });
});

describe('compute mass and fees', () => {
  it('a P2PK payment of one input and two outputs weighs 2036 grams (316 bytes + 720 script + 1000 sig-op)', () => {
    // The same figure the stand-in's verifier (written apart) finds for the goref DAG's real transactions.
    const input: MassInput = { amount: 44n * KAS, signatureScriptLength: 66, sigOpCount: 1, spentScriptLength: 34 };
    const two: MassOutput[] = [
      { value: 22n * KAS, scriptLength: 34 },
      { value: 22n * KAS, scriptLength: 34 },
    ];
    expect(computeMass([input], two)).toBe(2036n);
    const m = masses([input], two);
    expect(m.transient).toBe(316n * 4n);
    expect(m.feeFloorMass).toBe(2036n);
    expect(minimumRelayFee(m.feeFloorMass)).toBe(203_600n);
  });

  it.each([
    [100n, 10_000n],
    [500_000n, 50_000_000n],
    [0n, 100_000n],
  ])('relay floor at mass %d: %d sompi', (mass, fee) => {
    expect(minimumRelayFee(mass)).toBe(fee);
  });

  it('feerates are read as the exact decimals they print as', () => {
    expect(feerateFromJson(120.25)).toEqual({ numerator: 12025n, denominator: 100n });
    expect(feerateFromJson(1e-7)).toEqual({ numerator: 1n, denominator: 10_000_000n });
    expect(feeFor(feerateFromJson(120.25), 2036n)).toBe(244_829n); // 244,828.9 rounded up
    expect(() => feerateFromJson('1')).toThrow(TypeError);
    expect(() => feerateFromJson(-1)).toThrow(TypeError);
  });

  it('maxOutputs from the standard mass limit: 9 at 1 KAS, 99 at 10 KAS, none below 0.2 KAS', () => {
    expect(maxOutputsFor(KAS)).toBe(9);
    expect(maxOutputsFor(10n * KAS)).toBe(99);
    expect(maxOutputsFor(1000n * KAS)).toBe(208);
    expect(maxOutputsFor(20_000_000n)).toBe(1);
    expect(() => maxOutputsFor(19_000_000n)).toThrow(/no room/);
  });
});
