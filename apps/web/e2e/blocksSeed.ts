/**
 * Seeding for the Blocks page's browser test, through the server's own modules on the test's real
 * database: share batches through the accounting job (which records each chain's network and adds the
 * batch's work to the open round of every chain it was mined against), found blocks through the
 * recorder the share bus feeds (which closes the chain's round into the block), and maturity through
 * the confirmation queries the confirmations job uses. Every effort the page shows therefore comes
 * from the real round accounting; the expected figures below are worked out by hand.
 */
import { createHash, randomUUID } from 'node:crypto';
import { confirmBlock, orphanBlock, pendingBlocks, setBlockConfirmations } from '@lodestone/db';
import type { BatchNetwork, ShareBatch } from '@lodestone/domain';
import { applyShareBatch, recordFoundBlock } from './harness';
import type { Site } from './harness.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The networks of the batches: Litecoin, and Dogecoin and Bellscoin merge-mined with it. */
export const LTC_NETWORK: BatchNetwork = {
  coin: 'LTC',
  height: 2_800_000,
  reward: '625000000',
  difficulty: '30000000',
  demo: false,
};
export const DOGE_NETWORK: BatchNetwork = {
  coin: 'DOGE',
  height: 5_000_000,
  reward: '1000000000000',
  difficulty: '60000000',
  demo: false,
};
export const BELLS_NETWORK: BatchNetwork = {
  coin: 'BELLS',
  height: 150_000,
  reward: '2500000000',
  difficulty: '1000000',
  demo: false,
};

/** A block hash as explorers write it: 64 hex digits, one per label. */
export const blockHash = (label: string) => createHash('sha256').update(label).digest('hex');

export interface SeededBlock {
  coin: string;
  height: number;
  hash: string;
  foundAt: number;
  /** Reward in whole coins as the page shows it. */
  reward: string;
  status: string;
  effort: string;
  /** Found on a solo port: the page marks it "Solo". */
  solo: boolean;
}

export interface BlocksSeed {
  ltc: SeededBlock[];
  doge: SeededBlock[];
  /** Bellscoin's blocks, oldest first: 27, so its table has two pages. */
  bells: SeededBlock[];
  /** When the open LTC round began (the newest LTC block). */
  ltcRoundStart: number;
  dogeRoundStart: number;
}

/** One SCRYPT share batch of `difficulty` accepted, ending at `at`, mined against LTC and `merged`. */
async function mine(site: Site, at: number, difficulty: number, merged: BatchNetwork[]): Promise<void> {
  const batch: ShareBatch = {
    id: randomUUID(),
    node: 'e2e-node',
    algorithm: 'scrypt',
    intervalStart: at - 5000,
    intervalEnd: at,
    workers: [
      {
        account: 'blockminer',
        worker: 'rig1',
        acceptedDifficulty: difficulty,
        valid: 1,
        invalid: 0,
        stale: 0,
        lastShareAt: at - 1000,
        lastAcceptedAt: at - 1000,
        rejectReasons: {},
      },
    ],
    network: LTC_NETWORK,
    merged,
  };
  // Credit settings make accounting record the networks; prices are never fresh (1 ms), so credits wait.
  await applyShareBatch(site.database.db, batch, { feePercent: 1, priceMaxAgeMs: 1 });
}

/**
 * One SCRYPT share batch of a solo port's worker (`solominer.bitaxe`, docs/solo.md), `difficulty` accepted, ending
 * at `at`, mined against LTC: work of the account's own solo round, not of the pool's.
 */
async function mineSolo(site: Site, at: number, difficulty: number): Promise<void> {
  const batch: ShareBatch = {
    id: randomUUID(),
    node: 'e2e-node',
    algorithm: 'scrypt',
    intervalStart: at - 5000,
    intervalEnd: at,
    workers: [],
    soloWorkers: [
      {
        account: 'solominer',
        worker: 'bitaxe',
        acceptedDifficulty: difficulty,
        valid: 1,
        invalid: 0,
        stale: 0,
        lastShareAt: at - 1000,
        lastAcceptedAt: at - 1000,
        rejectReasons: {},
        bestDifficulty: difficulty * 3,
      },
    ],
    network: LTC_NETWORK,
    merged: [],
  };
  await applyShareBatch(site.database.db, batch, { feePercent: 1, priceMaxAgeMs: 1 });
}

/** The solo fee the seeded solo block keeps (SOLO_FEE_PERCENT). */
const SOLO_FEE_PERCENT = 1;

/**
 * A block the node accepted, found at `at`, measured against `networkDifficulty`; by `blockminer.rig1` on a pool port,
 * or `solo` by `solominer.bitaxe` on a solo port.
 */
async function found(
  site: Site,
  block: {
    coin: string;
    height: number;
    label: string;
    at: number;
    reward: string;
    networkDifficulty: string;
    solo?: boolean;
  },
): Promise<string> {
  const hash = blockHash(block.label);
  await recordFoundBlock(
    site.database.db,
    {
      id: randomUUID(),
      node: 'e2e-node',
      algorithm: 'scrypt',
      coin: block.coin,
      height: block.height,
      hash,
      reward: block.reward,
      account: block.solo ? 'solominer' : 'blockminer',
      worker: block.solo ? 'bitaxe' : 'rig1',
      difficulty: 65_536,
      networkDifficulty: block.networkDifficulty,
      foundAt: block.at,
      submitResult: { accepted: true },
      ...(block.solo ? { solo: true as const } : {}),
    },
    block.solo ? SOLO_FEE_PERCENT : undefined,
  );
  return hash;
}

async function idOf(site: Site, hash: string): Promise<string> {
  const block = (await pendingBlocks(site.database.db)).find((b) => b.hash === hash);
  if (!block) throw new Error(`block ${hash} is not pending`);
  return block.id;
}

/**
 * The hand-computed case (round work ÷ the block's network difficulty):
 *
 * Fifty days ago, 27 batches of 1,000,000 merge-mined with Bellscoin, each followed by a BELLS block at
 * 1,000,000: 27 BELLS blocks at 100.0 %; LTC's round holds 27,000,000 meanwhile.
 * - 40 days ago: 60,000,000 (with DOGE) → LTC #1 at 30,000,000: 87,000,000 → 290.0 % (confirmed);
 *   DOGE D0 at 75,000,000: 60,000,000 → 80.0 %.
 * - 3 days ago: 18,000,000 → LTC #2: 60.0 % (orphaned).
 * - 2 hours ago: 36,000,000 → LTC #3: 120.0 % (pending, 3 of 100 confirmations: 97 left);
 *   DOGE D1 at 60,000,000: 18,000,000 + 36,000,000 → 90.0 % (pending, no count: its chain's rule).
 * - 1 hour ago: 9,000,000 → LTC #4: 30.0 % (pending, not yet counted).
 * - 40 minutes ago, on a solo port: 15,000,000 by solominer (its own solo round, not the pool's) → 30 minutes ago
 *   its solo LTC block S: 15,000,000 ÷ 30,000,000 = 50.0 % (pending), which leaves the pool's round open.
 * - 10 minutes ago: 7,500,000, the open rounds: LTC 7,500,000 ÷ 30,000,000 = 25.0 % (S closed nothing of it, and
 *   its solo work is not in it); DOGE (9,000,000 + 7,500,000) ÷ 60,000,000 = 27.5 %.
 *
 * LTC's luck: 24 h, #3 and #4: mean effort 75.0 %, luck 2 ÷ 1.5 = 133.3 %; 7 and 30 days, #2 to #4
 * (an orphaned block counts: its round's work was spent): mean 70.0 %, luck 3 ÷ 2.1 = 142.9 %. The solo
 * block S is in none of them: it is its finder's luck, not the pool's.
 * DOGE: D1 alone in every period: 90.0 %, luck 111.1 %. BELLS: no block in 30 days, dashes.
 */
export async function seedBlocks(site: Site, now = Date.now()): Promise<BlocksSeed> {
  const bells: SeededBlock[] = [];
  const bellsStart = now - 50 * DAY_MS;
  for (let i = 0; i < 27; i += 1) {
    const at = bellsStart + i * MINUTE_MS;
    await mine(site, at, 1_000_000, [BELLS_NETWORK]);
    const block = { coin: 'BELLS', height: 140_000 + i, label: `bells-${i}`, at: at + 1000, reward: '2500000000' };
    const hash = await found(site, { ...block, networkDifficulty: '1000000' });
    bells.push({
      ...block,
      hash,
      foundAt: block.at,
      reward: '25.00000000 BELLS',
      status: 'Pending',
      effort: '100.0%',
      solo: false,
    });
  }

  const ltc: SeededBlock[] = [];
  const doge: SeededBlock[] = [];
  const ltcBlock = async (height: number, at: number, reward: string, shown: string, effort: string) => {
    const hash = await found(site, {
      coin: 'LTC',
      height,
      label: `ltc-${height}`,
      at,
      reward,
      networkDifficulty: '30000000',
    });
    const block = { coin: 'LTC', height, hash, foundAt: at, reward: shown, status: 'Pending', effort, solo: false };
    ltc.unshift(block);
    return block;
  };
  const dogeBlock = async (height: number, at: number, networkDifficulty: string, effort: string) => {
    const hash = await found(site, {
      coin: 'DOGE',
      height,
      label: `doge-${height}`,
      at,
      reward: '1000012345678',
      networkDifficulty,
    });
    const block = {
      coin: 'DOGE',
      height,
      hash,
      foundAt: at,
      reward: '10000.12345678 DOGE',
      status: 'Pending',
      effort,
      solo: false,
    };
    doge.unshift(block);
    return block;
  };

  let at = now - 40 * DAY_MS;
  await mine(site, at, 60_000_000, [DOGE_NETWORK]);
  const first = await ltcBlock(2_783_000, at + 1000, '625000000', '6.25000000 LTC', '290.0%');
  await dogeBlock(4_950_000, at + 2000, '75000000', '80.0%');
  await confirmBlock(
    site.database.db,
    { id: await idOf(site, first.hash), hash: first.hash, coin: 'LTC' },
    {
      confirmations: 120,
      at: new Date(at + DAY_MS),
    },
  );
  first.status = 'Confirmed';

  at = now - 3 * DAY_MS;
  await mine(site, at, 18_000_000, [DOGE_NETWORK]);
  const second = await ltcBlock(2_798_800, at + 1000, '625000000', '6.25000000 LTC', '60.0%');
  await orphanBlock(site.database.db, await idOf(site, second.hash), new Date(at + HOUR_MS));
  second.status = 'Orphaned';

  at = now - 2 * HOUR_MS;
  await mine(site, at, 36_000_000, [DOGE_NETWORK]);
  const third = await ltcBlock(2_799_950, at + 1000, '625012345', '6.25012345 LTC', '120.0%');
  await setBlockConfirmations(site.database.db, await idOf(site, third.hash), 3, 100);
  third.status = 'Pending — 97 confirmations left';
  await dogeBlock(4_999_900, at + 2000, '60000000', '90.0%');

  at = now - HOUR_MS;
  await mine(site, at, 9_000_000, [DOGE_NETWORK]);
  const fourth = await ltcBlock(2_799_975, at + 1000, '625000000', '6.25000000 LTC', '30.0%');

  at = now - 40 * MINUTE_MS;
  await mineSolo(site, at, 15_000_000);
  const soloAt = now - 30 * MINUTE_MS;
  const soloHash = await found(site, {
    coin: 'LTC',
    height: 2_799_990,
    label: 'ltc-solo-2799990',
    at: soloAt,
    reward: '625000000',
    networkDifficulty: '30000000',
    solo: true,
  });
  ltc.unshift({
    coin: 'LTC',
    height: 2_799_990,
    hash: soloHash,
    foundAt: soloAt,
    reward: '6.25000000 LTC',
    status: 'Pending',
    effort: '50.0%',
    solo: true,
  });

  await mine(site, now - 10 * MINUTE_MS, 7_500_000, [DOGE_NETWORK]);
  return { ltc, doge, bells, ltcRoundStart: fourth.foundAt, dogeRoundStart: (doge[0] as SeededBlock).foundAt };
}
