-- Pool statistics, sampled per algorithm. Everything is in base units so no reader has to guess:
-- hashrate in H/s, profit and profit_avg_24h in BTC per H/s per day. NUMERIC keeps them exact.
create table pool_stats (
  id bigint generated always as identity primary key,
  -- The lowercase keys of ALGORITHMS in @lodestone/domain; a test inserts every key.
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  taken_at timestamptz not null,
  hashrate numeric not null check (hashrate >= 0),
  miners integer not null check (miners >= 0),
  workers integer not null check (workers >= 0),
  profit numeric not null check (profit >= 0),
  profit_avg_24h numeric not null check (profit_avg_24h >= 0)
);

-- One index does three jobs: it makes (algorithm, taken_at) unique (ON CONFLICT (algorithm, taken_at)
-- infers it), it answers "newest row per algorithm" (DISTINCT ON (algorithm) ... ORDER BY taken_at DESC)
-- and it answers time-range reads (algorithm = $1 AND taken_at >= $2). A second index on the same
-- columns would only slow down inserts.
create unique index pool_stats_algorithm_taken_at on pool_stats (algorithm, taken_at desc);
