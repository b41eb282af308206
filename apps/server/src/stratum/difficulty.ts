import type { PowFunctions, StratumAlgorithm } from './pow.js';
import type { ListenerKind } from './session.js';

export interface PortDifficulty {
  min: number;
  max: number;
  start: number;
}

/**
 * Default share difficulties per algorithm and port kind, used where the listener's configuration
 * leaves them out. Standard ports start where a small current ASIC (about 1 TH/s SHA256, 1 GH/s
 * Scrypt, 100 GH/s X11) sends a share every few seconds and let vardiff climb; marketplace ports
 * (NiceHash and other rental proxies, which aggregate many machines) start and stay high.
 */
const DEFAULTS: Record<StratumAlgorithm, Record<ListenerKind, PortDifficulty>> = {
  sha256: {
    standard: { min: 1, start: 1024, max: 2 ** 48 },
    xnsub: { min: 1, start: 1024, max: 2 ** 48 },
    marketplace: { min: 500_000, start: 1_000_000, max: 2 ** 48 },
  },
  scrypt: {
    standard: { min: 1 / 64, start: 64, max: 2 ** 40 },
    xnsub: { min: 1 / 64, start: 64, max: 2 ** 40 },
    marketplace: { min: 65_536, start: 262_144, max: 2 ** 40 },
  },
  x11: {
    standard: { min: 1 / 256, start: 64, max: 2 ** 40 },
    xnsub: { min: 1 / 256, start: 64, max: 2 ** 40 },
    marketplace: { min: 256, start: 1024, max: 2 ** 40 },
  },
};

/**
 * On the demo network the simulated fleet hashes on the pool's own CPU, so a demo port goes down to
 * a share of 16 expected hashes and starts at 4096 (real miners pointed at it are raised by vardiff).
 */
const DEMO_MIN_HASHES = 16;
const DEMO_START_HASHES = 4096;

export function portDifficulty(
  algorithm: StratumAlgorithm,
  kind: ListenerKind,
  demo: boolean,
  pow: Pick<PowFunctions, 'hashesPerDifficulty'>,
  configured: { min?: number | undefined; max?: number | undefined; start?: number | undefined },
): PortDifficulty {
  const base = DEFAULTS[algorithm][kind];
  const defaults = demo
    ? {
        min: DEMO_MIN_HASHES / pow.hashesPerDifficulty,
        start: DEMO_START_HASHES / pow.hashesPerDifficulty,
        max: base.max,
      }
    : base;
  const min = configured.min ?? defaults.min;
  const max = Math.max(min, configured.max ?? defaults.max);
  const start = Math.min(max, Math.max(min, configured.start ?? defaults.start));
  return { min, max, start };
}
