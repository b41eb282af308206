import { ALGORITHMS, type AlgorithmKey, SORTABLE_COLUMNS, WORKERS_PAGE_SIZE } from '@lodestone/domain';
import { z } from 'zod';
import { accountName } from './account.js';
import { pageNumber } from './common.js';
import { chartPeriod, timeZone } from './pool.js';

/**
 * The Mining tab of the dashboard (docs/dashboard.md, Mining
 * API): the summary cards, the hashrate chart, the workers table and worker removal. The user calls
 * name one of the user's own live accounts (`account_name`); the observer twins name the account by
 * its read-only `observer_key` and answer the same bodies. There is no observer removal.
 *
 * Figures: hashrates are numbers with 2 decimals in their `…_units`; "current" is the pool's
 * statistics window (STATS_WINDOW_MINUTES, as the pool's own hashrate), "average" and share counts
 * are the last 24 complete UTC hours plus the current hour so far.
 */

/**
 * An algorithm as the dashboard sends it: the key (`scrypt`) or the name (`SCRYPT`), any case.
 * Unknown names are refused (400) rather than read as the default, so a typo never shows another
 * algorithm's workers.
 */
export const miningAlgorithm = z.string().transform((value, ctx): AlgorithmKey => {
  const found = ALGORITHMS.find((a) => a.key === value.trim().toLowerCase());
  if (!found) {
    ctx.addIssue({ code: 'custom', message: `Unknown algorithm: ${value}` });
    return z.NEVER;
  }
  return found.key;
});

/** The read-only key of the observer calls (the account's observer link). */
const observerKey = z.string().min(1).max(200);

// ── queries ─────────────────────────────────────────────────────────────────────────────────────

/** GET /v1/user/mining, /user/mining/workers and the removals: `account_name` and `algorithm`. */
export const miningQuery = z.object({ account_name: accountName, algorithm: miningAlgorithm });
/**
 * GET /v1/user/mining/chart: the hashrate over `period` (default 24h: half-hour points; 7d: 4-hour
 * points; 30d: days), x-axis labels in `timezone` (IANA name, default UTC; unknown → 400).
 */
export const miningChartQuery = miningQuery.extend({
  timezone: timeZone.default('UTC'),
  period: chartPeriod.default('24h'),
});

/** GET /v1/observer/mining and /observer/mining/workers. */
export const observerMiningQuery = z.object({ observer_key: observerKey, algorithm: miningAlgorithm });
/** GET /v1/observer/mining/chart. */
export const observerMiningChartQuery = observerMiningQuery.extend({
  timezone: timeZone.default('UTC'),
  period: chartPeriod.default('24h'),
});

/**
 * One page of the workers table, filtered, searched and sorted by the server with the table's own rules
 * (docs/dashboard.md, "Workers"): a farm of 10,000 machines reads ten rows, not all of them. `search` looks in
 * every shown value, whatever the case; `sort` is one of the first four columns (by name, naturally, when
 * absent); `state` and `group` are the two filters (`group`: `all`, `ungrouped` or `group:{name}`).
 */
const workersFilterQuery = {
  search: z.string().max(100, 'search has at most 100 characters').default(''),
  state: z.enum(['all', 'online', 'low', 'offline']).default('all'),
  group: z.string().max(60, 'group has at most 60 characters').default('all'),
};
const workersPageQuery = {
  page: pageNumber,
  sort: z.enum(SORTABLE_COLUMNS).optional(),
  direction: z.enum(['asc', 'desc']).default('asc'),
  ...workersFilterQuery,
};
/** GET /v1/user/mining/workers/page. */
export const miningWorkersPageQuery = miningQuery.extend(workersPageQuery);
/** GET /v1/observer/mining/workers/page. */
export const observerMiningWorkersPageQuery = observerMiningQuery.extend(workersPageQuery);
/** GET /v1/user/mining/workers/matching: the table's filters and search, as the page takes them. */
export const miningWorkersMatchingQuery = miningQuery.extend(workersFilterQuery);

/**
 * Path of /v1/user/mining/workers/remove/{workerId}: a worker `id` from the workers list. Anything
 * that is not a worker of the account on the algorithm (including text that is no id at all) is
 * answered 404, like another user's worker.
 */
export const miningWorkerParams = z.object({ workerId: z.string().max(40) });

// ── answers ─────────────────────────────────────────────────────────────────────────────────────

/** GET /v1/user/mining (docs/dashboard.md, Summary), the four cards. */
export const miningSummaryResponse = z.object({
  /**
   * Over the statistics window (`window_minutes`), in `hashrate_units`; an account younger than the
   * window over its own age (from its oldest worker's first share, at least a minute).
   */
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /** Over the last 24 hours (or the account's age, as above), in `hashrate_avg_units`. */
  hashrate_avg: z.number().nonnegative(),
  hashrate_avg_units: z.string(),
  /** The statistics window the current hashrate is measured over, minutes (STATS_WINDOW_MINUTES). */
  window_minutes: z.number().int().positive(),
  /** Workers with an accepted share in the statistics window. */
  active_workers: z.number().int().nonnegative(),
  /** Every worker of the account on the algorithm (the workers list's length). */
  total_workers: z.number().int().nonnegative(),
  /**
   * US dollars a day at the current hashrate: hashrate × the algorithm's newest PPS rate × (1 − the
   * account's pool fee) × the BTC price, rounded down to the cent. 0 while no rate or price is known.
   */
  estimated_revenue: z.number().nonnegative(),
});
export type MiningSummaryResponse = z.infer<typeof miningSummaryResponse>;

/** One row of the workers table (docs/dashboard.md, Workers). */
export const miningWorker = z.object({
  /** The id the removal call takes (a decimal integer as text). */
  id: z.string(),
  /** The `{worker}` of the stratum login `{account}.{worker}`. */
  name: z.string(),
  /** The label the miner gave it (docs/dashboard.md, "Worker groups"); null: none. */
  label: z.string().nullable(),
  /** Its group: its label, else its name's prefix up to the first `-`, `_` or `.` (`rack1-`); null: none. */
  group: z.string().nullable(),
  /**
   * Mining on a solo port (docs/solo.md): its blocks are its own and its shares are not paid by PPS. A
   * worker of the same name on a pool port is another row.
   */
  solo: z.boolean(),
  /**
   * Over the statistics window, in `hashrate_units` (each row has its own unit); a worker younger than
   * the window over its own age since its first share (at least a minute), not the whole window.
   */
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /** Over the last 24 hours (or the worker's age, as above), in `hashrate_avg_units`. */
  hashrate_avg: z.number().nonnegative(),
  hashrate_avg_units: z.string(),
  /** Online: an accepted share in the statistics window (what Active Workers counts). */
  online: z.boolean(),
  /**
   * Its health (docs/dashboard.md, "Workers"): `offline` past its own offline window (ten share
   * intervals), `low` when its shares in the window are significantly below 70% of its own 24-hour
   * average, `online` otherwise.
   */
  state: z.enum(['online', 'low', 'offline']),
  /** Its last accepted share, ISO 8601 UTC; null when none is recorded. */
  last_share_at: z.string().nullable(),
  /** Shares of the last 24 hours: accepted, rejected as invalid, and stale. */
  valid_shares: z.number().int().nonnegative(),
  invalid_shares: z.number().int().nonnegative(),
  stale_shares: z.number().int().nonnegative(),
});
export type MiningWorker = z.infer<typeof miningWorker>;

/** GET /v1/user/mining/workers — every worker of the account on the algorithm, by name (the website pages it). */
export const miningWorkersResponse = z.array(miningWorker);

const workerCount = z.number().int().nonnegative();

/** GET /v1/user/mining/workers/page (and the observer's): one page of the table and what its controls show. */
export const miningWorkersPageResponse = z.object({
  /** The page's rows, at most WORKERS_PAGE_SIZE. */
  workers: z.array(miningWorker).max(WORKERS_PAGE_SIZE),
  /** The page shown (the one asked for, clamped to the last) and how many there are (at least 1). */
  page: z.number().int().positive(),
  pages: z.number().int().positive(),
  /** Workers the filters and the search keep; `total`: every worker of the account on the algorithm. */
  matching: workerCount,
  total: workerCount,
  /** How many workers each state choice keeps within the chosen group. */
  states: z.object({ all: workerCount, online: workerCount, low: workerCount, offline: workerCount }),
  /** The group choices (all, each group in natural order, the ungrouped), each with what it keeps in the chosen state. */
  groups: z.array(z.object({ value: z.string(), label: z.string(), count: workerCount })),
  /** The instant the figures are of, ISO 8601 UTC: the rows' "12 min ago" is measured from it. */
  read_at: z.string(),
});
export type MiningWorkersPageResponse = z.infer<typeof miningWorkersPageResponse>;

/**
 * GET /v1/user/mining/workers/matching: every worker the table's filters and search keep, in the table's first order,
 * as a bulk action names them ("Select all N matching"): ids, names and labels instead of every row's figures.
 */
export const miningWorkersMatchingResponse = z.object({
  workers: z.array(z.object({ id: z.string(), name: z.string(), label: z.string().nullable() })),
  /** The instant the filters were applied at, ISO 8601 UTC. */
  read_at: z.string(),
});
export type MiningWorkersMatchingResponse = z.infer<typeof miningWorkersMatchingResponse>;

/**
 * GET /v1/user/mining/workers/one (and the observer's): one worker's row of the list, as the whole list has it, and
 * the instant it was read. What one worker's view shows, without reading the whole list.
 */
export const miningWorkerResponse = z.object({ worker: miningWorker, read_at: z.string() });
export type MiningWorkerResponse = z.infer<typeof miningWorkerResponse>;

/** One worker of the list, by its `id` (a positive decimal integer; anything else is answered 404). */
const workerId = z.string().regex(/^[1-9]\d{0,18}$/, 'Worker not found');

/** GET /v1/user/mining/workers/one, …/rejects and …/connections: one worker of the list, by its `id`. */
export const workerRejectsQuery = miningQuery.extend({ worker_id: workerId });
/** GET /v1/observer/mining/workers/rejects and …/connections. */
export const observerWorkerRejectsQuery = observerMiningQuery.extend({ worker_id: workerId });

/**
 * A worker's own hashrate chart covers what its hour rows keep (8 days): the last 24 hours in hourly
 * points or 7 days in 4-hour points. 30 days is the account's chart only (400 here).
 */
export const WORKER_CHART_PERIODS = ['24h', '7d'] as const;
const workerChartPeriod = z.enum(WORKER_CHART_PERIODS, {
  error: "A worker's chart covers 24h or 7d",
});
export type WorkerChartPeriod = (typeof WORKER_CHART_PERIODS)[number];
/** GET /v1/user/mining/workers/chart. */
export const workerChartQuery = miningQuery.extend({
  worker_id: workerId,
  timezone: timeZone.default('UTC'),
  period: workerChartPeriod.default('24h'),
});
/** GET /v1/observer/mining/workers/chart. */
export const observerWorkerChartQuery = observerMiningQuery.extend({
  worker_id: workerId,
  timezone: timeZone.default('UTC'),
  period: workerChartPeriod.default('24h'),
});

/** The most connection events one worker's history answers (newest first). */
export const MAX_CONNECTION_EVENTS = 100;

/** One event of a worker's connection history (docs/dashboard.md, "Connection history"). */
export const workerConnectionEvent = z.object({
  /** ISO 8601 UTC. */
  at: z.string(),
  event: z.enum(['connect', 'disconnect']),
  /** Why the connection ended (a disconnect): `closed by miner`, `idle`, `too many bad shares`, `shutdown`, … */
  reason: z.string().nullable(),
  /** The miner's address range (/24 or /48), never the whole address. */
  ip_range: z.string().nullable(),
  /** The mining software, as it named itself in `mining.subscribe`. */
  user_agent: z.string().nullable(),
  /** The stratum node it was connected to. */
  node: z.string(),
});

/** GET /v1/user/mining/workers/connections: the worker's last MAX_CONNECTION_EVENTS events of 8 days. */
export const workerConnectionsResponse = z.object({
  id: z.string(),
  name: z.string(),
  connections: z.array(workerConnectionEvent),
});
export type WorkerConnectionsResponse = z.infer<typeof workerConnectionsResponse>;

/**
 * A worker's refused shares of the last 24 hours (whole UTC hours) by reason — `stale`, `duplicate`,
 * `low-difficulty`, `job-not-found`, `ntime-out-of-range`, `bad-nonce`, … — reasons without refusals
 * left out (docs/dashboard.md, "Workers"). Read when a miner opens one worker, so the list of 10,000
 * stays as fast as it was.
 */
export const workerRejectsResponse = z.object({
  id: z.string(),
  name: z.string(),
  rejects: z.record(z.string(), z.number().int().positive()),
});

/** The most workers one selected removal takes. */
export const MAX_SELECTED_WORKERS = 10_000;

/**
 * POST /v1/user/mining/workers/remove_selected?account_name=&algorithm= — the workers a miner chose
 * (a group, a filter's result): their ids, comma-separated (a form) or as a list (JSON).
 */
export const removeSelectedBody = z.object({
  ids: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((id) => id.trim())
            .filter((id) => id !== '')
        : v,
    z
      .array(z.string().regex(/^[1-9]\d{0,18}$/, 'Each worker id is a whole number'), {
        error: 'Choose the workers to remove',
      })
      .min(1, 'Choose the workers to remove')
      .max(MAX_SELECTED_WORKERS, `At most ${MAX_SELECTED_WORKERS} workers at once`),
  ),
});

/**
 * POST /v1/user/mining/workers/label?account_name=&algorithm= — gives the chosen workers a label (their
 * group, docs/dashboard.md "Worker groups"); an empty label takes it off, so they group by name again.
 */
export const labelWorkersBody = z.object({
  ids: removeSelectedBody.shape.ids,
  label: z.string({ error: 'Type a label' }).max(200, 'At most 40 characters'),
});
export const labelWorkersResponse = z.object({
  result: z.literal(true),
  labelled: z.number().int().nonnegative(),
});

/**
 * GET (as the original site calls it) or POST /v1/user/mining/workers/remove/{workerId} and
 * /v1/user/mining/workers/removeall: how many workers were removed.
 */
export const miningRemoveResponse = z.object({
  result: z.literal(true),
  removed: z.number().int().nonnegative(),
});
