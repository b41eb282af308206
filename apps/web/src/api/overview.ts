import type { AlgorithmKey } from '@lodestone/domain';
import { call } from './client';

/**
 * GET user/overview (algorithm): every account of the logged-in user on one algorithm, with their totals
 * (docs/dashboard.md, All accounts). Session only: there is no observer twin.
 */
export function getOverview(algorithm: AlgorithmKey, signal?: AbortSignal) {
  return call('userOverview', { query: { algorithm }, signal });
}
