-- A worker's 'day' period now holds the hour in progress too: the 24 complete hours and the current
-- one, 25 hours (1,500 minutes). The dashboard's workers list then reads one totals row per worker
-- and period instead of also probing the current hour's row of every worker. Periods of the old
-- length stop being wanted and the rollup job deletes them on its next run.
alter table worker_total_periods drop constraint worker_total_periods_minutes_check;
alter table worker_total_periods add constraint worker_total_periods_minutes_check
  check (minutes between 1 and 1500);
