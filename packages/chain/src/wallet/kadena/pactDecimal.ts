import { decimalToUnits, unitsToDecimal } from '../amounts.js';

/**
 * KDA amounts at the Pact boundary. The coin contract keeps 12 decimals (`MINIMUM_PRECISION 12`,
 * `enforce-unit`: kadena-io/chainweb-node pact/coin-contract/coin.pact), so the pool counts KDA in units
 * of 10^-12 and writes each amount as a Pact decimal literal, digit for digit, never through a double.
 */
export const KDA_DECIMALS = 12;

/**
 * Units as a Pact decimal literal: 1_500_000_000_000n → "1.5", 10^12 → "1.0", 1n → "0.000000000001".
 * The point is kept on whole amounts: `1` would be a Pact integer, which `transfer-create`'s
 * `amount:decimal` refuses; trailing zeros are dropped as Pact's own rendering does.
 */
export function pactDecimal(units: bigint): string {
  if (units < 0n) throw new RangeError(`a KDA amount cannot be negative: ${units}`);
  const text = unitsToDecimal(units, KDA_DECIMALS).replace(/0+$/, '');
  return text.endsWith('.') ? `${text}0` : text;
}

/**
 * A decimal as the operator writes it ("0.00000001") or as Pact answers it (JSON number text, possibly
 * with an exponent), as KDA units. Refuses more than 12 decimals: no such amount exists in the coin
 * contract (and chainweb's mempool refuses such a gas price: "It should be rounded to at most 12 decimal
 * places", src/Chainweb/Mempool/InMem.hs).
 */
export function pactDecimalToUnits(text: string): bigint {
  return decimalToUnits(text, KDA_DECIMALS);
}
