/**
 * Kadena's block reward (chainweb-node src/Chainweb/MinerReward.hs `blockMinerReward`): the miner
 * rewards table gives, per range of block heights, the total reward of one block height across all
 * chains in KDA; a block's coinbase is that total divided by the number of chains at the height,
 * rounded half to even, in Stu (1 KDA = 10^12 Stu, the smallest unit). The row that applies to height h
 * is the first whose height is ≥ h; past the table the reward is 0.
 */
import { CHAINWEB_VERSIONS, type ChainwebVersionName } from './header.js';
import { MINER_REWARDS_CSV } from './minerRewardsCsv.js';

/** Decimals of KDA: 1 KDA = 10^12 Stu. */
export const KDA_DECIMALS = 12;
const STU_PER_KDA = 10n ** BigInt(KDA_DECIMALS);

/** The table as [height, total reward in Stu], ascending. */
export const MINER_REWARDS: readonly (readonly [bigint, bigint])[] = Object.freeze(parseRewards(MINER_REWARDS_CSV));

function parseRewards(csv: string): [bigint, bigint][] {
  const rows: [bigint, bigint][] = [];
  for (const line of csv.split('\n')) {
    if (line === '') continue;
    const match = /^(\d+),(\d+)(?:\.(\d{1,12}))?$/.exec(line);
    if (!match) throw new Error(`miner rewards table: bad row ${JSON.stringify(line)}`);
    const [, height, whole, fraction = ''] = match as unknown as [string, string, string, string | undefined];
    rows.push([BigInt(height), BigInt(whole) * STU_PER_KDA + BigInt(fraction.padEnd(KDA_DECIMALS, '0'))]);
  }
  return rows;
}

/** Rounds numerator / denominator to the nearest integer, ties to even (Haskell's `round`). */
function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = 2n * (numerator % denominator);
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** The number of chains of a chainweb version at a block height (10 before the twenty-chain graph). */
export function chainCountAt(version: ChainwebVersionName, height: bigint): number {
  return height >= CHAINWEB_VERSIONS[version].twentyChainsFrom ? 20 : 10;
}

/** The coinbase of one block at `height` on any chain, in Stu. */
export function kadenaBlockReward(version: ChainwebVersionName, height: bigint | number): bigint {
  const h = BigInt(height);
  if (h < 0n) throw new RangeError(`block height ${h} is negative`);
  let low = 0;
  let high = MINER_REWARDS.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((MINER_REWARDS[mid] as readonly [bigint, bigint])[0] >= h) high = mid;
    else low = mid + 1;
  }
  const row = MINER_REWARDS[low];
  if (row === undefined) return 0n;
  return divideHalfEven(row[1], BigInt(chainCountAt(version, h)));
}
