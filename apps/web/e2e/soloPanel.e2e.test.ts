import { createHash, randomUUID } from 'node:crypto';
import { confirmBlock, pendingBlocks, postSoloReward, setBlockConfirmations } from '@lodestone/db';
import type { BatchNetwork, FoundBlock, ShareBatch, WorkerShareCounts } from '@lodestone/domain';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/lib/dates';
import { formatHashrate } from '../src/lib/format';
import { formatDailyOdds, formatExpectedTime } from '../src/routes/dashboard/mining/solo';
import { logIn, type SeededUser, seedUser, skipWizard } from './dashboardSeed.js';
import { applyShareBatch, recordFoundBlock, type Site, startSite } from './harness.js';

/**
 * The Mining tab's solo panel (issue 29; docs/dashboard.md, Solo mining) against the real server and database, at a
 * laptop's width and a phone's, for the miner and the observer. Everything is seeded through the real accounting path:
 * share batches whose solo workers carry their best shares (applyShareBatch), solo blocks recorded as the share bus
 * records them (recordFoundBlock, which closes the finder's solo round into the block), and the first block matured as
 * the confirmations job matures it (confirmBlock and postSoloReward in one transaction). The page's figures are the
 * API's answer for the account; the answer itself is checked against the seed by hand.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** SCRYPT's hashes per difficulty 1 (packages/pow/src/scrypt.ts). */
const SCRYPT_HASHES_PER_DIFFICULTY = 2 ** 16;

/** Litecoin as the stratum node's newest job saw it: blocks at difficulty 30,000,000, 6.25 LTC each. */
const LTC: BatchNetwork = { coin: 'LTC', height: 2_800_000, reward: '625000000', difficulty: '30000000', demo: false };
const BLOCK_DIFFICULTY = 30_000_000;
/** SOLO_FEE_PERCENT's default, which the site's config keeps. */
const SOLO_FEE_PERCENT = 1;

const ACCOUNT = 'solominer';
const blockHash = (label: string) => createHash('sha256').update(label).digest('hex');

let batches = 0;

interface Mined {
  name: string;
  difficulty: number;
  best?: number;
}

/** One flush of a stratum node ending at `end`: pool-port workers and solo-port workers of `account`, against LTC. */
async function mine(site: Site, account: string, end: number, pool: Mined[], solo: Mined[]): Promise<void> {
  batches += 1;
  const counts = (w: Mined): WorkerShareCounts => ({
    account,
    worker: w.name,
    acceptedDifficulty: w.difficulty,
    valid: Math.max(1, Math.round(w.difficulty / 5000)),
    invalid: 0,
    stale: 0,
    lastShareAt: end - 1000,
    lastAcceptedAt: end - 1000,
    rejectReasons: {},
    ...(w.best !== undefined && { bestDifficulty: w.best }),
  });
  const batch: ShareBatch = {
    id: `00000000-0000-4000-b000-${String(batches).padStart(12, '0')}`,
    node: 'e2e-node',
    algorithm: 'scrypt',
    intervalStart: end - 5000,
    intervalEnd: end,
    workers: pool.map(counts),
    soloWorkers: solo.map(counts),
    network: LTC,
  };
  // Credit settings make accounting record the network; prices are never fresh (1 ms), so PPS credits wait.
  await applyShareBatch(site.database.db, batch, {
    feePercent: 1,
    soloFeePercent: SOLO_FEE_PERCENT,
    priceMaxAgeMs: 1,
  });
}

/** A block the node accepted, as the share bus reports it; solo ones keep the solo fee in force. */
async function found(
  site: Site,
  block: { account: string; worker: string; height: number; at: number; reward: string; solo: boolean },
): Promise<string> {
  const hash = blockHash(`${block.account}-${block.height}`);
  const report: FoundBlock = {
    id: randomUUID(),
    node: 'e2e-node',
    algorithm: 'scrypt',
    coin: 'LTC',
    height: block.height,
    hash,
    reward: block.reward,
    account: block.account,
    worker: block.worker,
    difficulty: 65_536,
    networkDifficulty: LTC.difficulty,
    foundAt: block.at,
    submitResult: { accepted: true },
    ...(block.solo && { solo: true as const }),
  };
  await recordFoundBlock(site.database.db, report, SOLO_FEE_PERCENT);
  return hash;
}

async function pendingBlock(site: Site, hash: string) {
  const block = (await pendingBlocks(site.database.db)).find((b) => b.hash === hash);
  if (!block) throw new Error(`block ${hash} is not pending`);
  return block;
}

interface Seeded {
  /** Newest first, as the panel lists them. */
  blocks: { height: number; hash: string; foundAt: number }[];
  /** When the open round's best share was sent. */
  roundBestAt: number;
}

/**
 * By hand (blocks at difficulty 30,000,000, 6.25 LTC):
 * - 3 days ago bitaxe1 mines 12,000,000 (best share 2,500,000) and finds block 2799000: effort 40.0 %. It matures:
 *   the account is credited 6.25 × (1 − 1 %) = 6.1875 LTC. The same batch has the pool port's rig1, whose pool
 *   block right after is no solo block.
 * - 26 hours ago bitaxe1 mines 9,000,000 (best 7,000,000) and bitaxe2 6,000,000 (best 3,100,000); bitaxe2 finds block
 *   2799500 (reward 6.25012345): effort 50.0 %, 3 of 100 confirmations, credited on maturity.
 * - 2 minutes ago bitaxe1 mines 150,000 with a best share of 1,234,567: the open round, 0.5 %.
 * Best ever: bitaxe1 7,000,000 ("7 M"), bitaxe2 3,100,000 ("3.1 M"). Another account's solo block is not listed.
 * The 24-hour hashrate is bitaxe1's 150,000 alone over the 24 to 25 hours of the period: 109.2 to 113.8 Kh/s.
 */
async function seedSolo(site: Site): Promise<Seeded> {
  const now = Date.now();
  const t1 = now - 3 * DAY;
  await mine(
    site,
    ACCOUNT,
    t1,
    [{ name: 'rig1', difficulty: 40_000 }],
    [{ name: 'bitaxe1', difficulty: 12_000_000, best: 2_500_000 }],
  );
  const first = await found(site, {
    account: ACCOUNT,
    worker: 'bitaxe1',
    height: 2_799_000,
    at: t1 + 1000,
    reward: '625000000',
    solo: true,
  });
  await found(site, {
    account: ACCOUNT,
    worker: 'rig1',
    height: 2_799_001,
    at: t1 + 2000,
    reward: '625000000',
    solo: false,
  });
  // The confirmations job's maturity (jobs/blockConfirmations.ts, advance): one transaction.
  const matured = await pendingBlock(site, first);
  await site.database.db.transaction().execute(async (trx) => {
    const at = new Date(t1 + 6 * HOUR);
    await confirmBlock(trx, matured, { confirmations: 100, at, reward: 625_000_000n });
    const credit = await postSoloReward(trx, matured, 625_000_000n, at);
    if (!credit.credited) throw new Error(`the solo block was not credited: ${credit.reason}`);
  });

  const t2 = now - 26 * HOUR;
  await mine(
    site,
    ACCOUNT,
    t2,
    [],
    [
      { name: 'bitaxe1', difficulty: 9_000_000, best: 7_000_000 },
      { name: 'bitaxe2', difficulty: 6_000_000, best: 3_100_000 },
    ],
  );
  const second = await found(site, {
    account: ACCOUNT,
    worker: 'bitaxe2',
    height: 2_799_500,
    at: t2 + 1000,
    reward: '625012345',
    solo: true,
  });
  await setBlockConfirmations(site.database.db, (await pendingBlock(site, second)).id, 3, 100);

  await seedUser(site, 'othersolo', 'other.solo@example.org');
  await mine(site, 'othersolo', t2, [], [{ name: 'cpu', difficulty: 1_000_000, best: 900_000 }]);
  await found(site, {
    account: 'othersolo',
    worker: 'cpu',
    height: 2_799_600,
    at: t2 + 5000,
    reward: '625000000',
    solo: true,
  });

  const t3 = now - 2 * MINUTE;
  await mine(site, ACCOUNT, t3, [], [{ name: 'bitaxe1', difficulty: 150_000, best: 1_234_567 }]);
  return {
    blocks: [
      { height: 2_799_500, hash: second, foundAt: t2 + 1000 },
      { height: 2_799_000, hash: first, foundAt: t1 + 1000 },
    ],
    roundBestAt: t3 - 1000,
  };
}

/** The solo answer as the page reads it (packages/contract/src/solo.ts). */
interface SoloAnswer {
  fee_percent: number;
  coin: string | null;
  demo: boolean;
  network: { block_difficulty: number; block_reward: string } | null;
  hashrate: number;
  hashrate_units: string;
  odds: { p_day: number; expected_seconds: number | null } | null;
  round: { started_at: string; effort: number | null; best_difficulty: number | null; best_at: string | null } | null;
  workers: {
    id: string;
    name: string;
    online: boolean;
    hashrate: number;
    hashrate_units: string;
    p_day: number | null;
    best_difficulty: number | null;
    best_at: string | null;
  }[];
  blocks: {
    height: number;
    hash: string;
    explorer_url: string | null;
    found_at: string;
    reward: string;
    status: string;
    confirmations_left: number | null;
    effort: number | null;
    worker: string;
    fee_percent: number;
    credited: string | null;
  }[];
}

const soloUrl = `/v1/user/mining/solo?account_name=${ACCOUNT}&algorithm=scrypt`;

/** What the API itself answers, fetched in the page with its session. */
function apiAnswer<T>(page: Page, path: string): Promise<{ status: number; body: T }> {
  return page.evaluate(async (url) => {
    const answer = await fetch(url, { credentials: 'include' });
    return { status: answer.status, body: (await answer.json()) as T };
  }, path);
}

const oneLine = (text: string) => text.trim().replace(/\s+/g, ' ');
const texts = (cells: Locator) => cells.allInnerTexts().then((all) => all.map(oneLine));

/**
 * The figures that move with the clock (a 24-hour hashrate is divided by the period's true length: the answer read a
 * moment later may differ in its last decimal), as the page shows them and as the answer the page last received says
 * they should read.
 */
async function movingFigures(panel: Locator, answer: SoloAnswer | undefined): Promise<string> {
  const shown = {
    hashrate: oneLine(await panel.getByTestId('solo-hashrate').innerText()),
    odds: oneLine(await panel.getByTestId('solo-odds-day').innerText()),
    expected: oneLine(await panel.getByTestId('solo-expected-time').innerText()),
    workers: await texts(panel.getByTestId('solo-worker-hashrate')),
  };
  const wanted = answer && {
    hashrate: formatHashrate(answer.hashrate, answer.hashrate_units),
    odds: answer.odds ? formatDailyOdds(answer.odds.p_day) : '—',
    expected: answer.odds ? formatExpectedTime(answer.odds.expected_seconds) : '—',
    workers: answer.workers.map((w) => formatHashrate(w.hashrate, w.hashrate_units)),
  };
  const page = JSON.stringify(shown);
  const api = JSON.stringify(wanted);
  return page === api ? 'same' : `page ${page}, API ${api}`;
}

/** With SOLO_SHOTS=<folder>, the panel is also saved as a screenshot, to look at by eye. */
async function shot(panel: Locator, name: string): Promise<void> {
  const folder = process.env.SOLO_SHOTS;
  if (folder) await panel.screenshot({ path: `${folder}/${name}.png` });
}

/** The page is no wider than the screen, and every figure of the panel is inside it. */
async function expectFits(page: Page, panel: Locator, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const boxes = await panel.locator('[data-testid^="solo-"]').evaluateAll((elements) =>
    elements.map((e) => {
      const r = e.getBoundingClientRect();
      return { id: e.getAttribute('data-testid'), left: r.left, right: r.right };
    }),
  );
  expect(boxes.length).toBeGreaterThan(20);
  for (const box of boxes) {
    expect(box.left, `${box.id} starts on screen`).toBeGreaterThanOrEqual(-0.5);
    expect(box.right, `${box.id} ends on screen`).toBeLessThanOrEqual(width + 0.5);
  }
}

const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 900 },
  { name: 'phone', width: 375, height: 800 },
] as const;

describe('the solo panel', () => {
  let site: Site;
  let miner: SeededUser;
  let seeded: Seeded;

  beforeAll(async () => {
    site = await startSite();
    miner = await seedUser(site, ACCOUNT, 'solo.miner@example.org');
    seeded = await seedSolo(site);
  });
  afterAll(() => site?.close());

  /** The dashboard (or the observer's, by the account's observer key), recording each solo answer the page receives. */
  async function open(width: number, height: number, as: 'miner' | 'observer') {
    const opened = await site.newPage({ width, height });
    const answers: SoloAnswer[] = [];
    opened.page.on('response', (response) => {
      if (!/\/v1\/(user|observer)\/mining\/solo\?/.test(response.url()) || response.status() !== 200) return;
      // A refetch answered as the test closes the page has no body left to read, and no test reads it; any
      // other failure to read an answer still fails the run (an unhandled rejection).
      response.json().then(
        (answer) => answers.push(answer as SoloAnswer),
        (error: unknown) => {
          if (!opened.page.isClosed()) throw error;
        },
      );
    });
    if (as === 'miner') {
      await logIn(opened.context, site, miner);
      await skipWizard(opened.context, [ACCOUNT]);
      await opened.page.goto('/dashboard');
    } else {
      await opened.page.goto(`/dashboard/${encodeURIComponent(miner.account.observer_key ?? '')}`);
    }
    const panel = opened.page.getByTestId('solo-panel');
    await panel.getByTestId('solo-block-row').first().waitFor();
    const zone = await opened.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    return { ...opened, panel, zone, latest: () => answers.at(-1) };
  }

  it('the API answers the seeded figures, worked out by hand', async () => {
    const { page, context } = await open(1366, 900, 'miner');
    const { status, body } = await apiAnswer<SoloAnswer>(page, soloUrl);
    expect(status).toBe(200);
    expect(body.fee_percent).toBe(SOLO_FEE_PERCENT);
    expect(body.coin).toBe('LTC');
    expect(body.demo).toBe(false);
    expect(body.network).toEqual({ block_difficulty: BLOCK_DIFFICULTY, block_reward: '6.25' });
    // 150,000 × 2^16 hashes over the 24-hour period, 24 to 25 hours long.
    expect(body.hashrate_units).toBe('Kh/s');
    const hashes = 150_000 * SCRYPT_HASHES_PER_DIFFICULTY;
    expect(body.hashrate).toBeGreaterThanOrEqual(Math.floor(hashes / (25 * 3600) / 10) / 100);
    expect(body.hashrate).toBeLessThanOrEqual(Math.ceil(hashes / (24 * 3600) / 10) / 100);
    // P(a block in a day) = 1 − e^(−H·86400 / (D·2^16)), at the answer's own hashrate (rounded to 2 decimals).
    const perBlock = BLOCK_DIFFICULTY * SCRYPT_HASHES_PER_DIFFICULTY;
    const rate = body.hashrate * 1000;
    expect(body.odds?.p_day).toBeCloseTo(-Math.expm1(-(rate * 86_400) / perBlock), 6);
    expect((body.odds?.expected_seconds ?? 0) / (perBlock / rate)).toBeCloseTo(1, 3);
    expect(body.round).toEqual({
      started_at: new Date(seeded.blocks[0]?.foundAt ?? 0).toISOString(),
      effort: 0.005,
      best_difficulty: 1_234_567,
      best_at: new Date(seeded.roundBestAt).toISOString(),
    });
    expect(body.workers.map((w) => [w.name, w.online, w.best_difficulty])).toEqual([
      ['bitaxe1', true, 7_000_000],
      ['bitaxe2', false, 3_100_000],
    ]);
    expect(body.blocks.map((b) => [b.height, b.worker, b.status, b.confirmations_left, b.effort])).toEqual([
      [2_799_500, 'bitaxe2', 'pending', 97, 0.5],
      [2_799_000, 'bitaxe1', 'confirmed', null, 0.4],
    ]);
    expect(body.blocks.map((b) => [b.reward, b.fee_percent, b.credited === null ? null : Number(b.credited)])).toEqual([
      ['6.25012345', SOLO_FEE_PERCENT, null],
      ['6.25', SOLO_FEE_PERCENT, 6.1875],
    ]);
    await context.close();
  });

  describe.each(VIEWPORTS)('on a $name ($width px)', ({ width, height }) => {
    it('shows what the API answers for the account, tags the solo workers, and fits the screen', async () => {
      const { page, context, errors, panel, zone, latest } = await open(width, height, 'miner');
      const { body } = await apiAnswer<SoloAnswer>(page, soloUrl);
      const at = (time: string | number) => formatDateTime(time, { timeZone: zone });

      await expect.poll(() => movingFigures(panel, latest())).toBe('same');
      expect(latest()?.blocks).toEqual(body.blocks);
      const card = async (testId: string) => oneLine(await panel.getByTestId(testId).innerText());
      expect(await card('solo-fee')).toBe('1%');
      expect(await card('solo-network-difficulty')).toBe('30 M');
      expect(await card('solo-network-reward')).toBe('6.25000000 LTC');
      expect(await card('solo-round-effort')).toBe('0.5%');
      expect(await card('solo-round-best')).toBe('1.23 M');
      const cards = oneLine(await panel.getByTestId('solo-cards').innerText());
      expect(cards).toContain(`(since ${at(seeded.blocks[0]?.foundAt ?? 0)})`);
      expect(cards).toContain(`(at ${at(seeded.roundBestAt)})`);
      expect(cards).toContain('(at the 24-hour hashrate)');
      expect(oneLine(await panel.getByTestId('solo-intro').innerText())).toContain('less the 1% solo fee');

      // Each solo worker's best share ever, and when.
      const workers = panel.getByTestId('solo-worker-row');
      expect(await texts(workers.getByTestId('solo-worker-name'))).toEqual(body.workers.map((w) => w.name));
      expect(await texts(workers.getByTestId('solo-worker-status'))).toEqual(['Online', 'Offline']);
      expect(await texts(workers.getByTestId('solo-worker-best'))).toEqual(['7 M', '3.1 M']);
      // Each worker's own chance of a block today, as the API worked it out.
      expect(await texts(workers.getByTestId('solo-worker-odds'))).toEqual(
        body.workers.map((w) => (w.p_day === null ? '—' : formatDailyOdds(w.p_day))),
      );
      expect(await texts(workers.getByTestId('solo-worker-best-at'))).toEqual(
        body.workers.map((w) => (w.best_at ? at(w.best_at) : '—')),
      );

      // The account's solo blocks only: its pool block and the other account's solo block are not there.
      const blocks = panel.getByTestId('solo-block-row');
      expect(await blocks.count()).toBe(2);
      expect(body.blocks.map((b) => b.height)).toEqual(seeded.blocks.map((b) => b.height));
      expect(await texts(blocks.getByTestId('solo-block-height'))).toEqual(
        body.blocks.map((b) => (b.explorer_url ? `${b.height} (opens the block in a new tab)` : String(b.height))),
      );
      for (const [i, block] of body.blocks.entries()) {
        const link = blocks.nth(i).getByTestId('solo-block-link');
        if (block.explorer_url === null) {
          expect(await link.count()).toBe(0);
          continue;
        }
        expect(block.explorer_url).toContain(seeded.blocks[i]?.hash);
        expect(await link.getAttribute('href')).toBe(block.explorer_url);
        expect(await link.getAttribute('target')).toBe('_blank');
      }
      expect(await texts(blocks.getByTestId('solo-block-found'))).toEqual(seeded.blocks.map((b) => at(b.foundAt)));
      expect(await texts(blocks.getByTestId('solo-block-worker'))).toEqual(['bitaxe2', 'bitaxe1']);
      expect(await texts(blocks.getByTestId('solo-block-reward'))).toEqual(['6.25012345 LTC', '6.25000000 LTC']);
      expect(await texts(blocks.getByTestId('solo-block-status'))).toEqual([
        'Pending — 97 confirmations left',
        'Confirmed',
      ]);
      expect(await texts(blocks.getByTestId('solo-block-effort'))).toEqual(['50.0%', '40.0%']);
      expect(await texts(blocks.getByTestId('solo-block-credited'))).toEqual(['On maturity', '6.18750000 LTC']);

      // The workers table tags the solo port's workers; rig1 mines on a pool port.
      const table = page.getByTestId('workers-table');
      await table.getByTestId('worker-row').first().waitFor();
      const soloTags = (name: string) =>
        table.getByTestId('worker-row').filter({ hasText: name }).getByTestId('worker-solo').count();
      expect(await soloTags('bitaxe1')).toBe(1);
      expect(await soloTags('bitaxe2')).toBe(1);
      expect(await soloTags('rig1')).toBe(0);

      await expectFits(page, panel, width);
      await shot(panel, `solo-panel-${width}`);
      await shot(table, `solo-workers-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('shows the observer the same panel', async () => {
      const { page, context, errors, panel, latest } = await open(width, height, 'observer');
      await expect.poll(() => movingFigures(panel, latest())).toBe('same');
      expect(await texts(panel.getByTestId('solo-block-credited'))).toEqual(['On maturity', '6.18750000 LTC']);
      expect(await texts(panel.getByTestId('solo-worker-best'))).toEqual(['7 M', '3.1 M']);
      await expectFits(page, panel, width);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
