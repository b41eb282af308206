-- Solo mining (docs/solo.md). A solo port's worker is its own worker row, apart from a pool port's
-- worker of the same name, so that its shares never mix with PPS shares; its best share is kept. The
-- blocks it finds are marked solo with the solo fee in force when found (a later change of the
-- setting does not reach them); each account's solo round holds its own work since its own last
-- solo block on the chain. At maturity the finder is credited on the ledger (kind solo_reward).
--
-- Not additive: a process from before this release upserts workers ON CONFLICT (account, algorithm,
-- name), which no longer names a unique key. Stop every process before migrating (docs/deployment.md).

alter table workers
  add column solo boolean not null default false,
  -- The highest difficulty a share's hash achieved, and when (solo workers only).
  add column best_difficulty numeric check (best_difficulty > 0),
  add column best_difficulty_at timestamptz,
  add constraint workers_best_difficulty_at check ((best_difficulty is null) = (best_difficulty_at is null));
alter table workers drop constraint workers_account_algorithm_name_key;
alter table workers add constraint workers_account_algorithm_name_solo_key unique (account, algorithm, name, solo);

alter table blocks
  add column solo boolean not null default false,
  add column solo_fee_percent numeric check (solo_fee_percent between 0 and 100),
  add constraint blocks_solo_fee check (solo = (solo_fee_percent is not null));
-- An account's solo blocks, newest first (its dashboard).
create index blocks_solo_account on blocks (account, found_at desc) where solo;

-- The work of one account's solo workers on one chain since that account's last solo block there:
-- the effort of its next block, and its best share of the round.
create table solo_rounds (
  account text not null check (account <> ''),
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  coin text not null,
  accepted_difficulty numeric not null default 0 check (accepted_difficulty >= 0),
  best_difficulty numeric check (best_difficulty > 0),
  best_at timestamptz,
  started_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (account, algorithm, coin),
  check ((best_difficulty is null) = (best_at is null))
);

alter table ledger_transactions drop constraint ledger_transactions_kind_check;
alter table ledger_transactions add constraint ledger_transactions_kind_check check (kind in (
  'pps_credit', 'conversion', 'payout', 'payout_reversal', 'block_reward', 'admin_adjustment', 'solo_reward'));
alter table ledger_entries drop constraint ledger_entries_kind_check;
alter table ledger_entries add constraint ledger_entries_kind_check check (kind in (
  'pps', 'pps_expense', 'fee', 'referral', 'redirect_in', 'redirect_out', 'conversion_in', 'conversion_out',
  'payout', 'payout_reversal', 'block_reward', 'admin_adjustment', 'solo_reward', 'solo_expense'));
