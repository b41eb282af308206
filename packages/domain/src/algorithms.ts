/**
 * The six algorithms the pool mines, in the order every screen and API lists them.
 * `key` is the lowercase identifier used in API paths and response keys; `name` is what people read.
 */
export const ALGORITHMS = [
  { key: 'scrypt', name: 'SCRYPT', profitUnitExponent: 12 },
  { key: 'sha256', name: 'SHA256', profitUnitExponent: 15 },
  { key: 'eaglesong', name: 'EAGLESONG', profitUnitExponent: 12 },
  { key: 'blake2s', name: 'BLAKE2S', profitUnitExponent: 12 },
  { key: 'x11', name: 'X11', profitUnitExponent: 12 },
  { key: 'kheavyhash', name: 'KHEAVYHASH', profitUnitExponent: 15 },
] as const satisfies readonly AlgorithmInfo[];

export interface AlgorithmInfo {
  key: string;
  name: string;
  /**
   * Profitability is quoted in BTC per day per 10^exponent H/s. The exponent is chosen per algorithm so that five
   * decimals (the profit precision, docs/website.md, Figures) show meaningful digits for a real network.
   */
  profitUnitExponent: number;
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
