-- FPPS (docs/money.md, "FPPS"): a coin set to FPPS pays a share its part of the block subsidy plus
-- its part of the network's average fees per block over the last 24 hours. The job `network-fees`
-- reads each such coin's blocks from its node, sums the day and writes what it found — or why it
-- could not — and every credit records the block value it was paid at, so it can be worked out again.

-- Blocks of the network's recent days as the node reported them (getblockstats). The job adds the
-- blocks above the newest one it has with the same hash (a reorganisation replaces the rest) and
-- deletes those older than 48 hours.
create table network_block_fees (
  coin text not null,
  height bigint not null check (height >= 0),
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  -- The block's own timestamp.
  time timestamptz not null,
  subsidy numeric(40, 0) not null check (subsidy >= 0),
  total_fees numeric(40, 0) not null check (total_fees >= 0),
  primary key (coin, height)
);

create index network_block_fees_time on network_block_fees (coin, time);

-- One row per reading of a coin's fee day: the blocks stamped in (day_from, day_to] and their fees
-- (the average is total_fees ÷ blocks), or why the node could not say (`unavailable`).
create table network_fee_days (
  id bigint generated always as identity primary key,
  coin text not null,
  computed_at timestamptz not null,
  day_from timestamptz not null,
  day_to timestamptz not null check (day_to > day_from),
  blocks integer check (blocks > 0),
  first_height bigint check (first_height >= 0),
  last_height bigint check (last_height >= first_height),
  total_fees numeric(40, 0) check (total_fees >= 0),
  unavailable text check (length(unavailable) between 1 and 500),
  check (
    (unavailable is null and blocks is not null and first_height is not null and last_height is not null
      and total_fees is not null)
    or (unavailable is not null and blocks is null and first_height is null and last_height is null
      and total_fees is null)
  )
);

create index network_fee_days_newest on network_fee_days (coin, computed_at desc);

-- What each PPS credit (`pps:{credit_id}`) valued a block at: the scheme, the block value (FPPS: the
-- subsidy plus the day's average fees, with fractions), the fee part of it when known, the fee day it
-- used, and why a coin set to FPPS was valued by PPS instead. Credit = Σ difficulty × block_value ÷
-- network_difficulty, split as docs/money.md says.
create table pps_valuations (
  credit_id uuid primary key,
  coin text not null,
  scheme text not null check (scheme in ('pps', 'fpps')),
  block_value numeric not null check (block_value >= 0),
  block_fees numeric check (block_fees >= 0 and block_fees <= block_value),
  network_difficulty numeric not null check (network_difficulty > 0),
  fee_day_id bigint references network_fee_days (id),
  fallback text check (length(fallback) between 1 and 500),
  valued_at timestamptz not null,
  check ((scheme = 'fpps') = (fee_day_id is not null)),
  check (scheme = 'pps' or fallback is null)
);

-- The template's transaction fees inside `reward`, when its node gave every one of them (never for an
-- aux chain: createauxblock does not say).
alter table network_states add column fees numeric(40, 0) check (fees >= 0 and fees <= reward);
alter table merged_network_states add column fees numeric(40, 0) check (fees >= 0 and fees <= reward);
