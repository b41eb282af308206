import type { AlgorithmKey } from '@lodestone/domain';
import { POW } from '@lodestone/pow';

/** Expected hashes per share of difficulty 1 — the algorithm's convention, owned by @lodestone/pow. */
export type HashesPerDifficulty = (algorithm: AlgorithmKey) => number;

export const powHashesPerDifficulty: HashesPerDifficulty = (algorithm) => POW[algorithm].hashesPerDifficulty;
