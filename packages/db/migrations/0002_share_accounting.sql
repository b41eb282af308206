-- Shares into statistics: the workers stratum nodes report, their per-minute share counts, the record
-- of applied share batches (what makes accounting idempotent), found blocks, and the all-time figures
-- the rollup adds to pool_stats.

-- A worker is the `{account}.{worker}` of a stratum login, per algorithm. There are no user accounts
-- yet, so `account` is the login's account name as text; a later migration links it to accounts.
create table workers (
  id bigint generated always as identity primary key,
  account text not null check (account <> ''),
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  name text not null,
  first_seen_at timestamptz not null,
  -- Time of the worker's last share of any outcome (valid, invalid or stale).
  last_share_at timestamptz not null,
  -- Running all-time sum of accepted difficulty, kept in the same transaction as the minute rows.
  -- All-time figures (pool total hashes, all-time top hashers, users who ever mined) read these
  -- few thousand rows instead of scanning every minute row ever written.
  total_accepted_difficulty numeric not null default 0 check (total_accepted_difficulty >= 0),
  -- The unique index also serves "workers of an account" (account = $1 [and algorithm = $2]).
  unique (account, algorithm, name)
);

-- One row per worker and UTC minute. Accounting adds each share batch to the minute that contains the
-- batch's last instant (interval_end - 1 ms); see apps/server/src/jobs/accounting.ts.
create table worker_stats_minute (
  worker_id bigint not null references workers (id) on delete cascade,
  -- Denormalized from workers.algorithm (a worker never changes algorithm): the rollup and the top
  -- current hashers read "one algorithm, last N minutes", which with 10,000 workers and a 10-minute
  -- window is up to 100,000 rows. The (algorithm, minute) index below finds exactly those rows in one
  -- range scan over recently written pages; going through workers instead would first collect every
  -- worker id of the algorithm and probe the primary key once per worker and minute. Measured on
  -- PostgreSQL 15 with 30,000 workers (10,000 per algorithm) and 5.4 million minute rows: the index
  -- finds one algorithm's 100,000 window rows in about 6 ms; the rollup's whole query takes ~50 ms.
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  minute timestamptz not null check (minute = date_trunc('minute', minute)),
  accepted_difficulty numeric not null default 0 check (accepted_difficulty >= 0),
  valid integer not null default 0 check (valid >= 0),
  invalid integer not null default 0 check (invalid >= 0),
  stale integer not null default 0 check (stale >= 0),
  -- The primary key serves one worker's history (dashboard charts): worker_id = $1 and minute >= $2.
  primary key (worker_id, minute)
);

create index worker_stats_minute_algorithm_minute on worker_stats_minute (algorithm, minute);

-- Every share batch accounting applied, by its unique id. Inserting the id is the first statement of
-- the transaction that applies the batch: a second delivery (or a concurrent one, which waits on the
-- primary key until the first commits) inserts nothing and changes nothing.
create table share_batches (
  id uuid primary key,
  node text not null,
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  interval_start timestamptz not null,
  interval_end timestamptz not null,
  applied_at timestamptz not null default now(),
  check (interval_end >= interval_start)
);

-- Blocks found through the pool. `id` is the FoundBlock report's id; a block hash is recorded once
-- whichever report names it first.
create table blocks (
  id uuid primary key,
  node text not null,
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  coin text not null,
  height bigint not null check (height >= 0),
  hash text not null unique,
  -- Coinbase value in the coin's smallest unit.
  reward numeric(40, 0) not null check (reward >= 0),
  account text not null,
  worker text not null,
  -- Share difficulty of the solving share.
  difficulty numeric not null check (difficulty >= 0),
  -- pending: submitted, waiting for confirmations; confirmed / orphaned: decided by the chain;
  -- rejected: the daemon refused it at submission (submit_error says why).
  status text not null check (status in ('pending', 'confirmed', 'orphaned', 'rejected')),
  found_at timestamptz not null,
  submit_error text,
  check ((status = 'rejected') = (submit_error is not null))
);

create index blocks_algorithm_found_at on blocks (algorithm, found_at desc);

-- All-time figures in every snapshot. Defaults keep rows written before this migration valid.
alter table pool_stats
  add column users integer not null default 0 check (users >= 0),
  add column blocks integer not null default 0 check (blocks >= 0),
  -- All-time hashes: sum of accepted difficulty times the algorithm's hashes per difficulty 1.
  add column total_hashes numeric not null default 0 check (total_hashes >= 0);
