-- What each worker's minute rows hold beyond the rollups, kept on the worker's own row (docs/dashboard.md, "How the
-- figures stay fast"), so the workers list of a 10,000-machine farm reads one row per worker and its period totals
-- instead of summing every unrolled minute row of the pool at each read.
--
-- The invariant, at every snapshot: a worker's unrolled_* = Σ over its minute rows of (value - rolled value), the
-- "deltas" of migration 0005. It is kept by the two writers of those differences, each in the transaction that makes
-- them and under the worker row's lock:
-- - accounting adds a batch's counts to the worker's row in the same upsert that records its last share (so a batch
--   still writes each worker's row once), then to its minute row;
-- - the worker-rollup job locks the workers whose minute rows it rolls (before those rows, in the order accounting
--   locks workers) and subtracts exactly what it moves into the rollups.
-- Worker removal deletes the row with its minute rows, after folding their deltas into the account's half hours.
--
-- Not additive: a process from before this release writes minute rows without adding to its workers' rows, and a
-- job from before it rolls them without subtracting. Stop every process before migrating (docs/deployment.md).

alter table workers
  add column unrolled_difficulty numeric not null default 0 check (unrolled_difficulty >= 0),
  add column unrolled_valid bigint not null default 0 check (unrolled_valid >= 0),
  add column unrolled_invalid bigint not null default 0 check (unrolled_invalid >= 0),
  add column unrolled_stale bigint not null default 0 check (unrolled_stale >= 0);

update workers w
   set unrolled_difficulty = d.difficulty, unrolled_valid = d.valid, unrolled_invalid = d.invalid,
       unrolled_stale = d.stale
  from (select worker_id, sum(accepted_difficulty - rolled_difficulty) as difficulty, sum(valid - rolled_valid) as valid,
               sum(invalid - rolled_invalid) as invalid, sum(stale - rolled_stale) as stale
          from worker_stats_minute
         where accepted_difficulty <> rolled_difficulty or valid <> rolled_valid or invalid <> rolled_invalid
            or stale <> rolled_stale
         group by worker_id) d
 where d.worker_id = w.id;
