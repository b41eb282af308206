/**
 * kaspad's fee estimate (wRPC getFeeEstimate, kaspanet/rusty-kaspa rpc/core/src/model/feerate_estimate.rs):
 * feerates in sompi per gram as JSON floats, and `fee = feerate × mass`. A float never touches an amount
 * here: the number is read back as the exact decimal it prints as, and the fee is rounded up in integers.
 */

/** A feerate as an exact fraction of sompi per gram. */
export interface Feerate {
  numerator: bigint;
  denominator: bigint;
}

/** The exact decimal a JSON number prints as (`1.5`, `1e-7`, `100`), as a fraction; throws on anything else. */
export function feerateFromJson(value: unknown): Feerate {
  if (typeof value === 'bigint' && value >= 0n) return { numerator: value, denominator: 1n };
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`feerate ${String(value)} is not a non-negative number`);
  }
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(value));
  if (!match) throw new TypeError(`feerate ${value} is not a decimal`);
  const [, whole, fraction = '', exponent = '0'] = match;
  let numerator = BigInt(`${whole}${fraction}`);
  let denominator = 10n ** BigInt(fraction.length);
  const shift = Number(exponent);
  if (shift >= 0) numerator *= 10n ** BigInt(shift);
  else denominator *= 10n ** BigInt(-shift);
  return { numerator, denominator };
}

export function maxFeerate(a: Feerate, b: Feerate): Feerate {
  return a.numerator * b.denominator >= b.numerator * a.denominator ? a : b;
}

export function minFeerate(a: Feerate, b: Feerate): Feerate {
  return maxFeerate(a, b) === a ? b : a;
}

/** ceil(feerate × mass) sompi. */
export function feeFor(rate: Feerate, mass: bigint): bigint {
  return (rate.numerator * mass + rate.denominator - 1n) / rate.denominator;
}
