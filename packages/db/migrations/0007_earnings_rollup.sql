-- Earnings per mining account, coin, algorithm and quarter hour, kept in the same transaction as the
-- ledger legs they sum (postLedgerTransaction). An active account gets one PPS leg per share batch —
-- some 17,000 a day per coin — so daily earnings, charts and lifetime totals read these rows (96 a
-- day at most) instead of the legs. Quarter hours because every time zone in use today is offset from
-- UTC by whole quarter hours, so a day in the miner's zone is a whole number of buckets. The ledger
-- check (npm run ledger:check) proves these sums equal the legs.
create table earnings_quarter_hours (
  ledger_account_id bigint not null references ledger_accounts (id),
  coin text not null references coins (ticker),
  -- The algorithm whose shares earned it; '' for the rare earning leg without one.
  algorithm text not null
    check (algorithm in ('', 'scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  bucket timestamptz not null check (bucket = date_bin('15 minutes', bucket, timestamptz '2000-01-01 00:00:00+00')),
  amount numeric(40, 0) not null,
  primary key (ledger_account_id, coin, algorithm, bucket)
);

-- Earnings written before this table existed.
insert into earnings_quarter_hours (ledger_account_id, coin, algorithm, bucket, amount)
select e.ledger_account_id, e.coin, coalesce(e.algorithm, ''),
       date_bin('15 minutes', e.created_at, timestamptz '2000-01-01 00:00:00+00'), sum(e.amount)
  from ledger_entries e
  join ledger_accounts la on la.id = e.ledger_account_id
 where la.account_id is not null and e.kind in ('pps', 'redirect_in', 'referral')
 group by 1, 2, 3, 4;
