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
 * many machines) start and stay high; solo ports take a standard port's numbers (solo miners are
 * small machines: Bitaxes, CPUs). Eaglesong and Blake2s difficulties count hashes (difficulty 1 =
 * target 2^256 − 1); kHeavyHash's count 2^32 hashes. Kaspa and Kadena sessions are sent powers of two
 * (ASIC firmware; chainweb's target levels), so their bounds are powers of two.
 */
/** A standard port's numbers serve the xnsub and solo ports too; marketplace ports have their own. */
function kinds(standard: PortDifficulty, marketplace: PortDifficulty): Record<ListenerKind, PortDifficulty> {
  return { standard, xnsub: standard, solo: standard, marketplace };
}

const DEFAULTS: Record<AlgorithmKey, Record<ListenerKind, PortDifficulty>> = {
  sha256: kinds({ min: 1, start: 1024, max: 2 ** 48 }, { min: 500_000, start: 1_000_000, max: 2 ** 48 }),
  scrypt: kinds({ min: 1 / 64, start: 64, max: 2 ** 40 }, { min: 65_536, start: 262_144, max: 2 ** 40 }),
  x11: kinds({ min: 1 / 256, start: 64, max: 2 ** 40 }, { min: 256, start: 1024, max: 2 ** 40 }),
  eaglesong: kinds({ min: 2 ** 30, start: 2 ** 42, max: 2 ** 60 }, { min: 2 ** 44, start: 2 ** 46, max: 2 ** 60 }),
  // IceRiver's smallest (KS0, 100 GH/s) wants at least 64; vardiff raises bigger machines.
  kheavyhash: kinds({ min: 1, start: 64, max: 2 ** 30 }, { min: 4096, start: 16_384, max: 2 ** 30 }),
  // chainweb-mining-client starts every session at level 42 (2^42 hashes a share).
  blake2s: kinds({ min: 2 ** 32, start: 2 ** 42, max: 2 ** 60 }, { min: 2 ** 44, start: 2 ** 46, max: 2 ** 60 }),
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
