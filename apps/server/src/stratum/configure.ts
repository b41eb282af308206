import { clampDifficulty, type DifficultyBounds } from './vardiff.js';

/** BIP 320: the header version bits a pool lets miners roll. */
export const POOL_VERSION_MASK = 0x1fffe000;

export interface ConfigureOutcome {
  /** The answer to mining.configure: one entry per requested extension. */
  result: Record<string, unknown>;
  /** Set when version-rolling was requested: the negotiated mask (0 = none). */
  versionMask?: number;
  /** Set when minimum-difficulty was accepted: the session's new lower bound. */
  minimumDifficulty?: number;
  /** Set when subscribe-extranonce was accepted. */
  extranonceSubscribe?: true;
}

export function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

function popcount(value: number): number {
  let v = value >>> 0;
  let count = 0;
  while (v !== 0) {
    v &= v - 1;
    count++;
  }
  return count;
}

/**
 * Negotiates BIP 310 extensions. version-rolling: the mask is the miner's requested mask ∩ 1fffe000
 * (all of 1fffe000 when the miner sends none); if that leaves fewer bits than the miner's
 * min-bit-count, or none, the answer is `false` and no bits may roll. minimum-difficulty: a floor
 * within the port's bounds. subscribe-extranonce: only where extranonce subscription is offered.
 * Every other extension is answered `false`.
 */
export function negotiateExtensions(
  extensions: readonly string[],
  parameters: Record<string, unknown>,
  port: DifficultyBounds & { extranonceSubscribe: boolean },
): ConfigureOutcome {
  const outcome: ConfigureOutcome = { result: {} };
  const { result } = outcome;
  for (const extension of extensions) {
    if (extension === 'version-rolling') {
      const requested = parameters['version-rolling.mask'];
      const minBits = parameters['version-rolling.min-bit-count'];
      const wanted =
        typeof requested === 'string' && /^[0-9a-fA-F]{1,8}$/.test(requested)
          ? Number.parseInt(requested, 16)
          : 0xffffffff;
      const mask = (wanted & POOL_VERSION_MASK) >>> 0;
      const ok = mask !== 0 && (typeof minBits !== 'number' || popcount(mask) >= minBits);
      outcome.versionMask = ok ? mask : 0;
      result['version-rolling'] = ok;
      if (ok) result['version-rolling.mask'] = hex32(mask);
    } else if (extension === 'minimum-difficulty') {
      const value = parameters['minimum-difficulty.value'];
      const ok = typeof value === 'number' && Number.isFinite(value) && value > 0;
      if (ok) outcome.minimumDifficulty = clampDifficulty(value, port);
      result['minimum-difficulty'] = ok;
    } else if (extension === 'subscribe-extranonce') {
      if (port.extranonceSubscribe) outcome.extranonceSubscribe = true;
      result['subscribe-extranonce'] = port.extranonceSubscribe;
    } else {
      result[extension] = false;
    }
  }
  return outcome;
}
