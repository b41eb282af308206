import type { MiningWorker, SoloResponse } from '@lodestone/contract';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { DashboardSource } from '../../../api/dashboard';
import { ApiError } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { buildMiningWorker, seedWorkers } from '../../../testing/miningAnswers';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import { MiningTab } from './MiningTab';
import { SoloPanel } from './SoloPanel';

/**
 * The solo panel (docs/dashboard.md, Solo mining) as the Mining tab first shows it, from answers seeded in the query
 * cache. The browser test (e2e/solo.e2e.test.ts) checks it against the real server's answer for a seeded account.
 */
const miner: DashboardSource = { kind: 'user', account: 'solo01' };
const observer: DashboardSource = { kind: 'observer', observerKey: 'obs-key' };
const TZ = 'UTC';
const range = { period: '24h', onPeriod: () => undefined } as const;

const worker = buildMiningWorker;

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/** 1 TH/s against 120 T on SHA256: 1 in 5.97 million days, 16,332 years on average. */
const SOLO: SoloResponse = {
  fee_percent: 1,
  coin: 'BTC',
  demo: false,
  network: { block_difficulty: 120e12, block_reward: '3.125' },
  hashrate: 1,
  hashrate_units: 'Th/s',
  odds: { p_day: -Math.expm1(-(1e12 * 86_400) / (120e12 * 2 ** 32)), expected_seconds: (120e12 * 2 ** 32) / 1e12 },
  round: {
    started_at: '2026-05-01T08:00:00.000Z',
    effort: 0.000123,
    best_difficulty: 4_567_890_123,
    best_at: '2026-05-06T10:15:00.000Z',
  },
  workers: [
    {
      id: '7',
      name: 'bitaxe1',
      online: true,
      hashrate: 1,
      hashrate_units: 'Th/s',
      p_day: 1 / 250,
      best_difficulty: 98_765_432_100,
      best_at: '2026-04-20T03:04:00.000Z',
      last_share_at: '2026-05-06T11:00:00.000Z',
    },
    {
      id: '8',
      name: 'bitaxe2',
      online: false,
      hashrate: 0,
      hashrate_units: 'H/s',
      p_day: 0,
      best_difficulty: null,
      best_at: null,
      last_share_at: null,
    },
  ],
  blocks: [
    {
      height: 900_123,
      hash: HASH_B,
      explorer_url: `https://mempool.space/block/${HASH_B}`,
      found_at: '2026-05-01T08:00:00.000Z',
      reward: '3.13',
      status: 'pending',
      confirmations: 3,
      confirmations_left: 97,
      effort: 0.42,
      solo: true,
      coin: 'BTC',
      worker: 'bitaxe1',
      fee_percent: 1,
      credited: null,
    },
    {
      height: 899_000,
      hash: HASH_A,
      explorer_url: null,
      found_at: '2026-04-01T08:00:00.000Z',
      reward: '3.125',
      status: 'confirmed',
      confirmations: 100,
      confirmations_left: null,
      effort: 1.5,
      solo: true,
      coin: 'BTC',
      worker: 'bitaxe1',
      fee_percent: 1.5,
      credited: '3.07812500',
    },
  ],
};

function seed(source: DashboardSource, workers: MiningWorker[], solo: SoloResponse | null) {
  return (client: QueryClient) => {
    seedWorkers(client, source, 'sha256', workers);
    if (solo) client.setQueryData(queryKeys.solo(source, 'sha256'), solo);
  };
}

const SOLO_WORKERS = [
  worker('6', 'rig1'),
  worker('7', 'bitaxe1', { solo: true }),
  worker('8', 'bitaxe2', { solo: true }),
];

/** The texts of the elements whose test id is `testId`, in order (elements that hold no element of their own tag). */
function textsOfTestId(html: string, testId: string): string[] {
  const texts: string[] = [];
  for (let start = html.indexOf(`data-testid="${testId}"`); start >= 0; ) {
    const open = html.lastIndexOf('<', start);
    const tag = /^<(\w+)/.exec(html.slice(open))?.[1] ?? '';
    texts.push(textOf(html.slice(open, html.indexOf(`</${tag}>`, start))));
    start = html.indexOf(`data-testid="${testId}"`, start + 1);
  }
  return texts;
}

const textOfTestId = (html: string, testId: string) => textsOfTestId(html, testId)[0] ?? '';

const panel = (source: DashboardSource, workers: MiningWorker[], solo: SoloResponse | null) =>
  renderPage(<SoloPanel source={source} algorithm="sha256" timezone={TZ} />, { seed: seed(source, workers, solo) });

describe('the solo panel', () => {
  it('shows the hashrate, the odds at it, the network, the round and the solo fee', () => {
    const html = panel(miner, SOLO_WORKERS, SOLO);
    expect(textOfTestId(html, 'solo-hashrate')).toBe('1.00 Th/s');
    expect(textOfTestId(html, 'solo-odds-day')).toBe('1 in 5.97 million days');
    expect(textOfTestId(html, 'solo-expected-time')).toBe('16,332 years');
    expect(textOfTestId(html, 'solo-fee')).toBe('1%');
    expect(textOfTestId(html, 'solo-network-difficulty')).toBe('120 T');
    expect(textOfTestId(html, 'solo-network-reward')).toBe('3.12500000 BTC');
    expect(textOfTestId(html, 'solo-round-effort')).toBe('0.0%');
    expect(textOfTestId(html, 'solo-round-best')).toBe('4.57 G');
    const cards = textOfTestId(html, 'solo-cards');
    expect(cards).toContain('Chance of a block today (at the 24-hour hashrate)');
    expect(cards).toContain('Expected time to a block (at the 24-hour hashrate)');
    expect(cards).toContain('Round effort (since 2026-05-01 08:00)');
    expect(cards).toContain('Best share this round (at 2026-05-06 10:15)');
    expect(textOfTestId(html, 'solo-intro')).toBe(
      'A block found by one of your workers on a solo port is yours, less the 1% solo fee, credited when it matures; ' +
        'their shares are not paid by PPS. Figures for the BTC network.',
    );
    expect(textOf(html)).toContain('A block takes one share of difficulty 120,000,000,000,000 or more.');
  });

  it('lists each solo worker’s best share ever and when', () => {
    const html = panel(miner, SOLO_WORKERS, SOLO);
    expect(textsOfTestId(html, 'solo-worker-name')).toEqual(['bitaxe1', 'bitaxe2']);
    expect(textsOfTestId(html, 'solo-worker-status')).toEqual(['Online', 'Offline']);
    expect(textsOfTestId(html, 'solo-worker-hashrate')).toEqual(['1.00 Th/s', '0.00 H/s']);
    expect(textsOfTestId(html, 'solo-worker-odds')).toEqual(['1 in 250 days', 'None']);
    expect(textsOfTestId(html, 'solo-worker-best')).toEqual(['98.8 G', '—']);
    expect(textsOfTestId(html, 'solo-worker-best-at')).toEqual(['2026-04-20 03:04', '—']);
    expect(html).toContain('title="Difficulty 98,765,432,100"');
  });

  it('lists the solo blocks: height linked to the explorer, status, effort and what was credited', () => {
    const html = panel(miner, SOLO_WORKERS, SOLO);
    expect(textsOfTestId(html, 'solo-block-height')).toEqual(['900123 (opens the block in a new tab)', '899000']);
    expect(countTestIds(html, 'solo-block-link')).toBe(1);
    expect(html).toContain(`href="https://mempool.space/block/${HASH_B}"`);
    expect(textsOfTestId(html, 'solo-block-found')).toEqual(['2026-05-01 08:00', '2026-04-01 08:00']);
    expect(textsOfTestId(html, 'solo-block-worker')).toEqual(['bitaxe1', 'bitaxe1']);
    expect(textsOfTestId(html, 'solo-block-reward')).toEqual(['3.13000000 BTC', '3.12500000 BTC']);
    expect(textsOfTestId(html, 'solo-block-status')).toEqual(['Pending — 97 confirmations left', 'Confirmed']);
    expect(textsOfTestId(html, 'solo-block-effort')).toEqual(['42.0%', '150.0%']);
    expect(textsOfTestId(html, 'solo-block-credited')).toEqual(['On maturity', '3.07812500 BTC']);
    expect(html).toContain('title="The reward less the 1.5% solo fee kept on this block"');
  });

  it('shows the observer the same figures', () => {
    const html = panel(observer, SOLO_WORKERS, SOLO);
    expect(textOfTestId(html, 'solo-odds-day')).toBe('1 in 5.97 million days');
    expect(countTestIds(html, 'solo-block-row')).toBe(2);
  });

  it('says so before the pool has mined the algorithm, and when no block was found yet', () => {
    const html = panel(miner, SOLO_WORKERS, {
      ...SOLO,
      coin: null,
      network: null,
      odds: null,
      round: null,
      hashrate: 0,
      hashrate_units: 'H/s',
      blocks: [],
    });
    expect(textOfTestId(html, 'solo-no-network')).toBe(
      'The pool has not mined SHA256 yet: the odds appear once it has.',
    );
    for (const testId of ['solo-odds-day', 'solo-expected-time', 'solo-network-difficulty', 'solo-network-reward']) {
      expect(textOfTestId(html, testId), testId).toBe('—');
    }
    expect(textOfTestId(html, 'solo-round-effort')).toBe('—');
    expect(textOfTestId(html, 'solo-cards')).toContain('Round effort (no solo share yet)');
    expect(textOfTestId(html, 'solo-blocks-empty')).toBe(
      'No solo block yet: the first one your workers find will be listed here.',
    );
  });

  it('reads "None" and a dash at no solo hashrate', () => {
    const html = panel(miner, SOLO_WORKERS, { ...SOLO, hashrate: 0, odds: { p_day: 0, expected_seconds: null } });
    expect(textOfTestId(html, 'solo-odds-day')).toBe('None');
    expect(textOfTestId(html, 'solo-expected-time')).toBe('—');
  });

  it('says the demo network is the demo network', () => {
    const html = panel(miner, SOLO_WORKERS, { ...SOLO, demo: true });
    expect(textOfTestId(html, 'solo-intro')).toContain('Figures for the BTC network (the built-in demo network).');
  });

  it('waits for its answer, and is not shown when it fails: a box saying so would stand on every miner’s tab', () => {
    expect(countTestIds(panel(miner, SOLO_WORKERS, null), 'solo-panel')).toBe(0);
    const html = renderPage(<SoloPanel source={miner} algorithm="sha256" timezone={TZ} />, {
      seed: (client) => {
        seed(miner, SOLO_WORKERS, null)(client);
        failQuery(client, queryKeys.solo(miner, 'sha256'), new ApiError(503, 'http_503', 'The server answered 503.'));
      },
    });
    expect(countTestIds(html, 'solo-panel')).toBe(0);
  });

  it('is shown for solo blocks after the solo workers were removed', () => {
    const html = panel(miner, [worker('6', 'rig1')], { ...SOLO, workers: [] });
    expect(countTestIds(html, 'solo-panel')).toBe(1);
    expect(textOfTestId(html, 'solo-workers-empty')).toBe('No solo worker on this algorithm now.');
  });

  it('is not shown to an account that never mined solo', () => {
    const none = { ...SOLO, workers: [], blocks: [], round: null, hashrate: 0 };
    expect(countTestIds(panel(miner, [worker('6', 'rig1')], none), 'solo-panel')).toBe(0);
    expect(countTestIds(panel(miner, [worker('6', 'rig1')], null), 'solo-panel')).toBe(0);
  });
});

describe('the Mining tab', () => {
  it('has the solo panel and tags the solo workers in the workers table', () => {
    const html = renderPage(
      <MiningTab
        source={miner}
        algorithm="sha256"
        chartRange={range}
        actions={{ account: 'solo01', setUpWorkers: () => undefined }}
      />,
      { seed: seed(miner, SOLO_WORKERS, SOLO) },
    );
    expect(countTestIds(html, 'solo-panel')).toBe(1);
    expect(countTestIds(html, 'worker-solo')).toBe(2);
    const names = textOfTestId(html, 'workers-table');
    expect(names).toContain('bitaxe1 Solo');
    expect(names).toContain('bitaxe2 Solo');
    expect(names).not.toContain('rig1 Solo');
  });

  it('has no solo panel for an account without solo workers or blocks', () => {
    const html = renderPage(<MiningTab source={observer} algorithm="sha256" chartRange={range} />, {
      seed: seed(observer, [worker('6', 'rig1')], { ...SOLO, workers: [], blocks: [] }),
    });
    expect(countTestIds(html, 'solo-panel')).toBe(0);
    expect(countTestIds(html, 'worker-solo')).toBe(0);
  });
});
