import type { AlgorithmKey } from '@lodestone/domain';
import type { PowFunctions } from './pow.js';
import type { ListenerKind } from './session.js';

export interface PortDifficulty {
  min: number;
  max: number;
  start: number;
}

/**
 * Default share difficulties per algorithm and port kind, used where the listener's configuration
 * leaves them out. Standard ports start where a small current ASIC (about 1 TH/s SHA256, 1 GH/s
 * Scrypt, 100 GH/s X11, 1 TH/s Eaglesong or Blake2s, 100 GH/s kHeavyHash) sends a share every few
 * seconds and let vardiff climb; marketplace ports (NiceHash and other rental proxies, which aggregate
 * many machines) start and stay high. Eaglesong and Blake2s difficulties count hashes (difficulty 1 =
 * target 2^256 − 1); kHeavyHash's count 2^32 hashes. Kaspa and Kadena sessions are sent powers of two
 * (ASIC firmware; chainweb's target levels), so their bounds are powers of two.
 */
const DEFAULTS: Record<AlgorithmKey, Record<ListenerKind, PortDifficulty>> = {
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
  eaglesong: {
    standard: { min: 2 ** 30, start: 2 ** 42, max: 2 ** 60 },
    xnsub: { min: 2 ** 30, start: 2 ** 42, max: 2 ** 60 },
    marketplace: { min: 2 ** 44, start: 2 ** 46, max: 2 ** 60 },
  },
  kheavyhash: {
    // IceRiver's smallest (KS0, 100 GH/s) wants at least 64; vardiff raises bigger machines.
    standard: { min: 1, start: 64, max: 2 ** 30 },
    xnsub: { min: 1, start: 64, max: 2 ** 30 },
    marketplace: { min: 4096, start: 16_384, max: 2 ** 30 },
  },
  blake2s: {
    // chainweb-mining-client starts every session at level 42 (2^42 hashes a share).
    standard: { min: 2 ** 32, start: 2 ** 42, max: 2 ** 60 },
    xnsub: { min: 2 ** 32, start: 2 ** 42, max: 2 ** 60 },
    marketplace: { min: 2 ** 44, start: 2 ** 46, max: 2 ** 60 },
  },
};

/**
 * On the demo network the simulated fleet hashes on the pool's own CPU, so a demo port goes down to
 * a share of 16 expected hashes and starts at 4096 (real miners pointed at it are raised by vardiff).
 */
const DEMO_MIN_HASHES = 16;
const DEMO_START_HASHES = 4096;

export function portDifficulty(
  algorithm: AlgorithmKey,
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
