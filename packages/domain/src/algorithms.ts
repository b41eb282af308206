/**
 * The six algorithms the pool mines, in the order every screen and API lists them.
 * `key` is the lowercase identifier used in API paths and response keys; `name` is what people read.
 */
export const ALGORITHMS = [
  { key: 'scrypt', name: 'SCRYPT', profitUnitExponent: 12, machineUnitExponent: 9 },
  { key: 'sha256', name: 'SHA256', profitUnitExponent: 15, machineUnitExponent: 12 },
  { key: 'eaglesong', name: 'EAGLESONG', profitUnitExponent: 15, machineUnitExponent: 12 },
  { key: 'blake2s', name: 'BLAKE2S', profitUnitExponent: 15, machineUnitExponent: 12 },
  { key: 'x11', name: 'X11', profitUnitExponent: 12, machineUnitExponent: 9 },
  { key: 'kheavyhash', name: 'KHEAVYHASH', profitUnitExponent: 15, machineUnitExponent: 12 },
] as const satisfies readonly AlgorithmInfo[];

export interface AlgorithmInfo {
  key: string;
  name: string;
  /**
   * Profitability is quoted in BTC per day per 10^exponent H/s. The exponent is chosen per algorithm so that five
   * decimals (the profit precision, docs/website.md, Figures) show meaningful digits for a real network:
   * EAGLESONG and BLAKE2S earn about 0.0005–0.0008 BTC per PH/s a day, which per TH/s read "0.00000".
   */
  profitUnitExponent: number;
  /**
   * The unit machines of the algorithm report their speed in (10^exponent H/s), the calculator's
   * default Hash Rate unit: an S21 says 200 TH/s, an L9 16 GH/s, a D9 1770 GH/s, a K7, KD6 or KS5
   * tens of TH/s. A miner typing their machine's number gets its earnings, not a thousandfold.
   */
  machineUnitExponent: number;
}

export type Algorithm = (typeof ALGORITHMS)[number];
export type AlgorithmKey = Algorithm['key'];
export type AlgorithmName = Algorithm['name'];

export const ALGORITHM_KEYS = ALGORITHMS.map((a) => a.key) as [AlgorithmKey, ...AlgorithmKey[]];
export const ALGORITHM_NAMES = ALGORITHMS.map((a) => a.name) as [AlgorithmName, ...AlgorithmName[]];
export const DEFAULT_ALGORITHM: AlgorithmName = 'SCRYPT';

export function algorithmByKey(key: string): Algorithm | undefined {
  return ALGORITHMS.find((a) => a.key === key);
}

export function algorithmByName(name: string): Algorithm | undefined {
  return ALGORITHMS.find((a) => a.name === name);
}

export function isAlgorithmName(value: unknown): value is AlgorithmName {
  return typeof value === 'string' && ALGORITHMS.some((a) => a.name === value);
}
