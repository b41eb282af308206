-- Worker statistics rolled up, so the dashboard reads a few rows per hour instead of one per worker
-- and minute (docs/dashboard.md, "Mining API"). At 10,000 workers a day of minute rows is 14.4
-- million rows; the same day is 240,000 worker-hours and 48 account half-hours.
--
-- How a minute row reaches the rollups exactly once, whatever arrives late or concurrently:
--
-- - every minute row remembers how much of it is already rolled up (the rolled_* columns below);
--   its "delta" is what is not: accepted_difficulty - rolled_difficulty, and so on;
-- - accounting writes minute rows only together with a share_batches row, in one transaction. A
--   batch touches one minute (the minute of its last instant); its row stays `rolled_at is null`
--   until the worker-rollup job has rolled that minute;
-- - the job (apps/server/src/jobs/workerRollup.ts), in one transaction: takes unrolled batches of
--   complete minutes, locks the dirty minute rows of their minutes, adds their deltas to the hourly
--   and half-hourly tables, sets rolled_* to the current values and marks the batches rolled. A
--   batch committing meanwhile stays unrolled and is rolled by the next run (deltas already rolled
--   are zero by then), so nothing is counted twice or lost;
-- - so at every snapshot: rollups + the deltas of the minute rows in minutes of unrolled batches =
--   the minute rows summed directly. Readers use exactly that, in one statement.
--
-- Rule for later code: never write worker_stats_minute without a share_batches row in the same
-- transaction, and never delete share_batches rows that are not rolled yet.

alter table worker_stats_minute
  add column rolled_difficulty numeric not null default 0 check (rolled_difficulty >= 0),
  add column rolled_valid integer not null default 0 check (rolled_valid >= 0),
  add column rolled_invalid integer not null default 0 check (rolled_invalid >= 0),
  add column rolled_stale integer not null default 0 check (rolled_stale >= 0);

alter table share_batches add column rolled_at timestamptz;

-- The job's queue and the readers' "minutes not rolled yet": only the newest minute or two of
-- batches (plus any that arrived late) are in this index at any time.
create index share_batches_unrolled on share_batches (interval_end) where rolled_at is null;

-- One row per worker and UTC hour. Kept 8 days (the job deletes older rows): the dashboard reads the
-- last 24 hours; the rest is a week of per-worker history for support questions.
create table worker_stats_hour (
  worker_id bigint not null references workers (id) on delete cascade,
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  -- Whole UTC hours whatever the session time zone (date_trunc would follow it).
  hour timestamptz not null check (extract(epoch from hour) % 3600 = 0),
  accepted_difficulty numeric not null default 0 check (accepted_difficulty >= 0),
  -- One worker's shares in an hour fit an integer by far; sum(integer) adds in int8, several times
  -- faster than sum(bigint), which adds in numeric (the workers table sums 240,000 of these rows).
  valid integer not null default 0 check (valid >= 0),
  invalid integer not null default 0 check (invalid >= 0),
  stale integer not null default 0 check (stale >= 0),
  -- Minutes of the hour with at least one accepted share.
  active_minutes smallint not null default 0 check (active_minutes between 0 and 60),
  -- Serves "these workers, hours from … to …" (the workers table of the dashboard).
  primary key (worker_id, hour)
);

-- Retention deletes by age.
create index worker_stats_hour_hour on worker_stats_hour (hour);

-- Each worker's sums over the two periods the dashboard reads on every refresh, so that a read is one
-- row per worker instead of one per worker and hour or minute (at 10,000 workers: 10,000 rows
-- instead of 240,000 hour rows or 55,000 minute rows):
--   'day'    — the 24 complete hours before the current hour (the current hour is read from its
--              worker-hour rows);
--   'window' — the statistics window: N complete minutes and the current one (N + 1 minutes), kept
--              for this minute and the next, so readers at the turn of a minute find theirs ready.
-- They hold sums of what is rolled up, exactly as the hourly tables: the job computes a period when
-- it begins and adds every delta it rolls to each period covering the delta's minute; readers add the
-- deltas not rolled yet. A reader whose period is not there (the job has not got to it, or is down)
-- reads the hour or minute rows instead.
create table worker_period_totals (
  kind text not null check (kind in ('day', 'window')),
  period_from timestamptz not null,
  worker_id bigint not null references workers (id) on delete cascade,
  accepted_difficulty numeric not null default 0 check (accepted_difficulty >= 0),
  valid bigint not null default 0 check (valid >= 0),
  invalid bigint not null default 0 check (invalid >= 0),
  stale bigint not null default 0 check (stale >= 0),
  primary key (kind, period_from, worker_id)
);

-- Removing a worker deletes its rows through the foreign key: this finds them.
create index worker_period_totals_worker on worker_period_totals (worker_id);

-- The periods worker_period_totals holds, complete: a reader uses a period only when it is listed.
create table worker_total_periods (
  kind text not null check (kind in ('day', 'window')),
  period_from timestamptz not null check (extract(epoch from period_from) % 60 = 0),
  minutes integer not null check (minutes between 1 and 1441),
  primary key (kind, period_from)
);

-- One row per account, algorithm and UTC half hour: the dashboard chart's 30-minute points, the
-- account's 24-hour average, and (whole and half-hour time zones) days for earnings. Half hours
-- rather than hours because the chart has 30-minute points and India, Iran or Newfoundland start
-- their days on a half hour. Kept for good: 17,520 rows per account and algorithm a year.
--
-- The account's history stays when a worker is removed: the removal adds the worker's deltas not
-- rolled yet here before its minute rows go (so these rows never lose what was mined).
create table account_stats_half_hour (
  account text not null check (account <> ''),
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  half_hour timestamptz not null check (extract(epoch from half_hour) % 1800 = 0),
  accepted_difficulty numeric not null default 0 check (accepted_difficulty >= 0),
  valid bigint not null default 0 check (valid >= 0),
  invalid bigint not null default 0 check (invalid >= 0),
  stale bigint not null default 0 check (stale >= 0),
  -- Σ over workers of minutes with at least one accepted share (the "most used algorithm" measure).
  worker_minutes integer not null default 0 check (worker_minutes >= 0),
  primary key (account, algorithm, half_hour)
);

-- Statistics written before this migration are rolled up here, once, so the tables start complete.
insert into worker_stats_hour (worker_id, algorithm, hour, accepted_difficulty, valid, invalid, stale, active_minutes)
select worker_id, algorithm, date_bin('1 hour', minute, timestamptz '2000-01-01 00:00:00+00'),
       sum(accepted_difficulty), sum(valid), sum(invalid), sum(stale), count(*) filter (where valid > 0)
  from worker_stats_minute
 group by 1, 2, 3;

insert into account_stats_half_hour (account, algorithm, half_hour, accepted_difficulty, valid, invalid, stale, worker_minutes)
select w.account, s.algorithm, date_bin('30 minutes', s.minute, timestamptz '2000-01-01 00:00:00+00'),
       sum(s.accepted_difficulty), sum(s.valid), sum(s.invalid), sum(s.stale), count(*) filter (where s.valid > 0)
  from worker_stats_minute s
  join workers w on w.id = s.worker_id
 group by 1, 2, 3;

update worker_stats_minute
   set rolled_difficulty = accepted_difficulty, rolled_valid = valid, rolled_invalid = invalid, rolled_stale = stale;

update share_batches set rolled_at = now();
