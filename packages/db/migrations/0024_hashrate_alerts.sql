-- Hashrate alerts (docs/notifications.md, "Hashrate alerts"): beside the offline alert, rules a miner
-- sets per account and algorithm — "the hashrate fell below X" (a fixed X in H/s, or automatic: a
-- share of the account's own 24-hour average) and "active workers fell below N". Each rule keeps its
-- state (low since when) so that one message goes out when it turns low and one when it recovers.
create table hashrate_alerts (
  id bigint generated always as identity primary key,
  account_id bigint not null references accounts (id),
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  kind text not null check (kind in ('hashrate', 'workers')),
  -- kind hashrate: a fixed threshold in H/s, or a percentage of the 24-hour average (one of the two).
  threshold_hashrate numeric check (threshold_hashrate > 0),
  threshold_percent integer check (threshold_percent between 10 and 95),
  -- kind workers: the fewest online workers that is not an alert.
  min_workers integer check (min_workers between 1 and 1000000),
  low boolean not null default false,
  -- When the state last changed (null before the first check).
  changed_at timestamptz,
  created_at timestamptz not null,
  check ((kind = 'workers') = (min_workers is not null)),
  check (kind = 'workers' or ((threshold_hashrate is null) <> (threshold_percent is null))),
  check (kind = 'hashrate' or (threshold_hashrate is null and threshold_percent is null))
);

create index hashrate_alerts_account on hashrate_alerts (account_id);
