import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { DashboardSource } from '../../../api/dashboard';
import { ApiError } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { buildMiningWorker, seedWorkers } from '../../../testing/miningAnswers';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import { MiningTab } from './MiningTab';

/**
 * The Mining tab's workers and one worker's view (docs/dashboard.md, Workers and Worker groups) as a miner and an
 * observer first see them, from answers seeded in the query cache. The browser test (e2e/workerHealth.e2e.test.ts)
 * clicks through them against the real server.
 */
const observer: DashboardSource = { kind: 'observer', observerKey: 'obs-key' };
const miner: DashboardSource = { kind: 'user', account: 'alice01' };
// Unit tests run in UTC (vitest.config.ts), the zone the tab reads from the browser.
const TZ = 'UTC';
const range = { period: '24h', onPeriod: () => undefined } as const;

const worker = buildMiningWorker;
const WORKERS = [
  worker('1', 'rack1-a', { group: 'rack1-' }),
  worker('2', 'rack1-b', { group: 'rack1-', state: 'low' }),
  worker('3', 'spare', { state: 'offline', online: false }),
];

function seed(source: DashboardSource) {
  return (client: QueryClient) => {
    seedWorkers(client, source, 'scrypt', WORKERS);
    client.setQueryData(queryKeys.workerRejects(source, 'scrypt', '2'), {
      id: '2',
      name: 'rack1-b',
      rejects: { 'low-difficulty': 15, stale: 5 },
    });
    client.setQueryData(queryKeys.workerChart(source, 'scrypt', '2', TZ, '24h'), {
      x_axis: ['10:00', '11:00'],
      y_axis: [2, 1],
      label: 'Hashrate (Mh/s)',
    });
    client.setQueryData(queryKeys.workerConnections(source, 'scrypt', '2'), {
      id: '2',
      name: 'rack1-b',
      connections: [
        {
          at: '2026-05-06T11:00:05.000Z',
          event: 'disconnect',
          reason: 'idle',
          ip_range: '203.0.113.0/24',
          user_agent: 'cgminer/4.12',
          node: 'eu-1',
        },
        {
          at: '2026-05-06T10:00:00.000Z',
          event: 'connect',
          reason: null,
          ip_range: '203.0.113.0/24',
          user_agent: 'cgminer/4.12',
          node: 'eu-1',
        },
      ],
    });
  };
}

/** The text of the element whose test id is `testId` (its first). */
function textOfTestId(html: string, testId: string): string {
  const start = html.indexOf(`data-testid="${testId}"`);
  if (start < 0) return '';
  const open = html.lastIndexOf('<', start);
  const tag = /^<(\w+)/.exec(html.slice(open))?.[1] ?? '';
  const close = html.indexOf(`</${tag}>`, start);
  return textOf(html.slice(open, close));
}

describe('the workers table', () => {
  it('shows each worker’s state, the filters with their counts, and for the miner a box per worker', () => {
    const html = renderPage(
      <MiningTab
        source={miner}
        algorithm="scrypt"
        chartRange={range}
        actions={{ account: 'alice01', setUpWorkers: () => undefined }}
      />,
      { seed: seed(miner) },
    );
    expect(textOfTestId(html, 'workers-table')).toContain('rack1-b Low hashrate');
    expect(textOfTestId(html, 'workers-table')).toContain('spare Offline');
    expect(textOfTestId(html, 'state-filter-all')).toBe('All (3)');
    expect(textOfTestId(html, 'state-filter-low')).toBe('Low (1)');
    expect(textOfTestId(html, 'group-filter')).toBe('All groups (3) rack1- (2) Ungrouped (1)');
    expect(countTestIds(html, 'select-worker')).toBe(3);
    expect(textOfTestId(html, 'selection-count')).toBe('No worker selected');
    expect(textOfTestId(html, 'select-matching')).toBe('Select all 3 matching');
    expect(html).toContain('href="/?worker=2"');
  });

  it('offers the observer the filters and the workers’ views, but nothing that writes', () => {
    const html = renderPage(<MiningTab source={observer} algorithm="scrypt" chartRange={range} />, {
      seed: seed(observer),
    });
    expect(countTestIds(html, 'state-filter-offline')).toBe(1);
    expect(countTestIds(html, 'open-worker')).toBe(3);
    for (const testId of ['select-worker', 'select-page', 'selection-bar', 'remove-worker', 'remove-offline']) {
      expect(countTestIds(html, testId), testId).toBe(0);
    }
  });
});

describe('one worker’s view', () => {
  it('shows its state, figures, refusals by reason, chart and connections', () => {
    const html = renderPage(<MiningTab source={observer} algorithm="scrypt" chartRange={range} />, {
      path: '/dashboard/obs-key?worker=2',
      seed: seed(observer),
    });
    expect(textOfTestId(html, 'worker-summary')).toContain('Worker rack1-b');
    expect(textOfTestId(html, 'worker-detail-state')).toBe('Low hashrate');
    expect(textOfTestId(html, 'worker-detail-group')).toBe('rack1- (name prefix)');
    expect(textOfTestId(html, 'worker-detail-last-share')).toBe('None recorded');
    expect(textOfTestId(html, 'worker-detail-hashrate-avg')).toBe('2.00 Mh/s');
    expect(textOfTestId(html, 'worker-reject-rate')).toBe('Reject rate 2.00% : 20 of 1,000 shares refused');
    expect(textOfTestId(html, 'worker-reject-reasons')).toContain('Low difficulty 15 1.50% Stale 5 0.50%');
    expect(textOfTestId(html, 'worker-chart-section')).toContain('Hashrate (Mh/s) 2 points from 10:00 to 11:00.');
    expect(textOfTestId(html, 'worker-connections-table')).toContain(
      '2026-05-06 11:00:05 Disconnected idle 203.0.113.0/24 cgminer/4.12 eu-1 2026-05-06 10:00:00 Connected —',
    );
    expect(html).toContain('href="/dashboard/obs-key"');
  });

  it('says so when the address names a worker the server does not have', () => {
    const html = renderPage(<MiningTab source={observer} algorithm="scrypt" chartRange={range} />, {
      path: '/?worker=99',
      seed: (client) => {
        seed(observer)(client);
        failQuery(
          client,
          queryKeys.worker(observer, 'scrypt', '99'),
          new ApiError(404, 'not_found', 'Worker not found'),
        );
      },
    });
    expect(textOfTestId(html, 'worker-not-found')).toContain('it may have been removed');
  });

  it('shows a refused call in its own block and the rest of the view', () => {
    const html = renderPage(<MiningTab source={observer} algorithm="scrypt" chartRange={range} />, {
      path: '/?worker=2',
      seed: (client) => {
        seed(observer)(client);
        client.removeQueries({ queryKey: queryKeys.workerConnections(observer, 'scrypt', '2') });
        failQuery(
          client,
          queryKeys.workerConnections(observer, 'scrypt', '2'),
          new ApiError(503, 'http_503', 'The server answered with status 503.'),
        );
      },
    });
    expect(textOfTestId(html, 'worker-connections')).toContain(
      'The connection history could not be loaded: The server answered with status 503',
    );
    expect(textOfTestId(html, 'worker-detail-state')).toBe('Low hashrate');
  });
});
