import { createHash } from 'node:crypto';
import { type MergedWork, mergedWork, targetForNetworkDifficulty } from '@lodestone/chain';
import { bitsFromTarget } from '@lodestone/pow';

/**
 * Merged work for fixture SCRYPT jobs (tests, bench:stratum): a Dogecoin (chain id 98) and a Bellscoin
 * (chain id 16) aux block at a network difficulty in getdifficulty terms — by default 20 M, about
 * Dogecoin's in 2025 (written from memory), where a share at a port's difficulty meets neither target.
 * Their hashes are derived from labels: nothing here is a real block.
 */
export function fixtureMergedWork(difficulty = 20_000_000n): MergedWork {
  const target = targetForNetworkDifficulty(difficulty);
  const bits = bitsFromTarget(target).toString(16).padStart(8, '0');
  const block = (coin: string, chainId: number, height: number, coinbaseValue: bigint) => ({
    coin,
    chainId,
    height,
    coinbaseValue,
    bits,
    target,
    hash: labelHash(`${coin} block`),
    previousBlockHash: labelHash(`${coin} tip`),
  });
  const work = mergedWork([
    block('DOGE', 98, 5_800_000, 1_000_000_000_000n),
    block('BELLS', 16, 300_000, 1_500_000_000n),
  ]);
  if (!work) throw new Error('no merged work');
  return work;
}

function labelHash(label: string): string {
  return createHash('sha256').update(`lodestone fixture ${label}`).digest('hex');
}
