-- Money (docs/money.md): the payout coin catalogue, prices, the network state PPS is valued at, the
-- double-entry ledger and the balances it keeps, PPS credits waiting for a price, conversion and
-- payout settings, payouts and the demo wallet.

-- The coins miners can be paid in. Amount bounds are coin amounts (decimal), not smallest units.
-- The operator edits rows with SQL (docs/money.md); payouts_enabled = false hides nothing but stops
-- payouts of that coin.
create table coins (
  ticker text primary key check (ticker ~ '^[A-Z0-9]{2,10}$'),
  name text not null,
  -- Smallest unit = 10^-decimals of a coin (8 for BTC, 18 for ETH).
  decimals integer not null check (decimals between 0 and 30),
  -- The chain payouts are sent on (USDC is paid on Ethereum).
  network text not null,
  -- Which address rules apply (validatePayoutAddress in @lodestone/chain).
  address_format text not null,
  threshold_min numeric not null check (threshold_min > 0),
  threshold_max numeric not null check (threshold_max >= threshold_min),
  interval_min numeric not null check (interval_min > 0),
  interval_max numeric not null check (interval_max >= interval_min),
  -- Confirmations before a payout counts as settled and a found block as mature.
  confirmations integer not null check (confirmations >= 0),
  -- Explorer links with a {txid} / {address} placeholder; null when the coin has none.
  explorer_tx_url text check (explorer_tx_url is null or explorer_tx_url like '%{txid}%'),
  explorer_address_url text check (explorer_address_url is null or explorer_address_url like '%{address}%'),
  payouts_enabled boolean not null default true,
  position integer not null unique
);

insert into coins (ticker, name, decimals, network, address_format, threshold_min, threshold_max,
                   interval_min, interval_max, confirmations, explorer_tx_url, explorer_address_url, position) values
  ('BTC', 'Bitcoin', 8, 'bitcoin', 'bitcoin', 0.001, 0.5, 1, 48, 3,
   'https://mempool.space/tx/{txid}', 'https://mempool.space/address/{address}', 1),
  ('LTC', 'Litecoin', 8, 'litecoin', 'litecoin', 0.001, 50, 1, 48, 6,
   'https://litecoinspace.org/tx/{txid}', 'https://litecoinspace.org/address/{address}', 2),
  ('DOGE', 'Dogecoin', 8, 'dogecoin', 'dogecoin', 10, 100000, 1, 48, 6,
   'https://blockchair.com/dogecoin/transaction/{txid}', 'https://blockchair.com/dogecoin/address/{address}', 3),
  ('DGB', 'DigiByte', 8, 'digibyte', 'digibyte', 10, 100000, 1, 48, 10,
   'https://digiexplorer.info/tx/{txid}', 'https://digiexplorer.info/address/{address}', 4),
  ('ETH', 'Ethereum', 18, 'ethereum', 'ethereum', 0.001, 5, 1, 48, 12,
   'https://etherscan.io/tx/{txid}', 'https://etherscan.io/address/{address}', 5),
  ('CKB', 'Nervos CKB', 8, 'ckb', 'ckb', 100, 1000000, 1, 48, 24,
   'https://explorer.nervos.org/transaction/{txid}', 'https://explorer.nervos.org/address/{address}', 6),
  ('KDA', 'Kadena', 12, 'kadena', 'kadena', 1, 10000, 1, 48, 10,
   'https://explorer.chainweb.com/mainnet/txdetail/{txid}', 'https://explorer.chainweb.com/mainnet/account/{address}', 7),
  ('DASH', 'Dash', 8, 'dash', 'dash', 0.01, 50, 1, 48, 6,
   'https://blockchair.com/dash/transaction/{txid}', 'https://blockchair.com/dash/address/{address}', 8),
  ('KAS', 'Kaspa', 8, 'kaspa', 'kaspa', 10, 100000, 1, 48, 100,
   'https://explorer.kaspa.org/txs/{txid}', 'https://explorer.kaspa.org/addresses/{address}', 9),
  ('BELLS', 'Bellscoin', 8, 'bells', 'bells', 1, 10000, 1, 48, 6,
   'https://bellscoin.com/explorer/tx/{txid}', 'https://bellscoin.com/explorer/address/{address}', 10),
  ('BCH', 'Bitcoin Cash', 8, 'bitcoincash', 'bitcoincash', 0.01, 10, 1, 48, 6,
   'https://blockchair.com/bitcoin-cash/transaction/{txid}', 'https://blockchair.com/bitcoin-cash/address/{address}', 11),
  ('USDC', 'USD Coin (Ethereum)', 6, 'ethereum', 'ethereum', 10, 100000, 1, 48, 12,
   'https://etherscan.io/tx/{txid}', 'https://etherscan.io/address/{address}', 12),
  ('SOL', 'Solana', 9, 'solana', 'solana', 0.1, 1000, 1, 48, 32,
   'https://solscan.io/tx/{txid}', 'https://solscan.io/account/{address}', 13);

-- Price history in US dollars: coin tickers and fiat ('EUR' = USD per euro). The newest row of a
-- ticker is its price; crediting refuses a price older than PRICE_MAX_AGE_SECONDS.
create table prices (
  ticker text not null check (ticker ~ '^[A-Z0-9]{2,10}$'),
  taken_at timestamptz not null,
  usd numeric not null check (usd > 0),
  source text not null,
  primary key (ticker, taken_at)
);

-- What one share is worth on each algorithm: the coin mined there, its block reward (smallest units)
-- and the network difficulty in the algorithm's share-difficulty convention (a share of difficulty d
-- is worth d / difficulty blocks). Written from the network state share batches carry.
create table network_states (
  algorithm text primary key
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  coin text not null,
  height bigint not null check (height >= 0),
  reward numeric(40, 0) not null check (reward >= 0),
  difficulty numeric not null check (difficulty > 0),
  demo boolean not null,
  observed_at timestamptz not null
);

-- The ledger's accounts: one per mining account (created on its first entry) and the pool's own
-- accounts, named 'pool:…' (docs/money.md lists them and their signs).
create table ledger_accounts (
  id bigint generated always as identity primary key,
  account_id bigint unique references accounts (id),
  system_name text unique check (system_name ~ '^pool:[a-z_]+$'),
  check ((account_id is null) <> (system_name is null))
);

-- One ledger transaction per event (a share batch's credits, a conversion, a payout, ...). The
-- idempotency key makes replays harmless: the second insert of a key fails, and the caller treats
-- that as "already done".
create table ledger_transactions (
  id bigint generated always as identity primary key,
  idempotency_key text not null unique check (idempotency_key <> ''),
  kind text not null check (kind in (
    'pps_credit', 'conversion', 'payout', 'payout_reversal', 'block_reward', 'admin_adjustment')),
  -- What it is about: a share batch id, a payout id, a block hash, ...
  reference text,
  -- The user who made it (admin adjustments, conversions); null for the pool's own jobs.
  created_by_user_id bigint references users (id),
  reason text,
  created_at timestamptz not null default now()
);

-- Append-only legs. Each transaction's legs add up to zero per coin (checked at commit).
create table ledger_entries (
  id bigint generated always as identity primary key,
  transaction_id bigint not null references ledger_transactions (id),
  ledger_account_id bigint not null references ledger_accounts (id),
  coin text not null references coins (ticker),
  amount numeric(40, 0) not null check (amount <> 0),
  kind text not null check (kind in (
    'pps', 'pps_expense', 'fee', 'referral', 'redirect_in', 'redirect_out', 'conversion_in', 'conversion_out',
    'payout', 'payout_reversal', 'block_reward', 'admin_adjustment')),
  -- The algorithm whose shares earned it (PPS legs); null otherwise.
  algorithm text
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  -- Whose shares earned a referral reward or a redirect (the referred or redirecting account).
  source_account_id bigint references accounts (id),
  created_at timestamptz not null default now()
);

-- Earnings and balance history of one account read (ledger_account_id, coin, created_at).
create index ledger_entries_account_coin_time on ledger_entries (ledger_account_id, coin, created_at);
create index ledger_entries_transaction on ledger_entries (transaction_id);

create function ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only', tg_table_name using errcode = '42501';
end
$$;

create trigger ledger_entries_append_only before update or delete on ledger_entries
  for each statement execute function ledger_append_only();
create trigger ledger_transactions_append_only before update or delete on ledger_transactions
  for each statement execute function ledger_append_only();

-- Checked once per ledger transaction, at commit, over all its legs (the legs are written in the same
-- database transaction as the ledger transaction row; nothing writes legs to an older transaction,
-- and the reconciliation check, npm run ledger:check, proves it).
create function ledger_transaction_balanced() returns trigger language plpgsql as $$
declare
  unbalanced text;
begin
  select coin into unbalanced from ledger_entries where transaction_id = new.id
    group by coin having sum(amount) <> 0 limit 1;
  if unbalanced is not null then
    raise exception 'ledger transaction % does not balance in %', new.idempotency_key, unbalanced
      using errcode = '23514', constraint = 'ledger_transaction_balanced';
  end if;
  return null;
end
$$;

create constraint trigger ledger_transaction_balanced after insert on ledger_transactions
  deferrable initially deferred for each row execute function ledger_transaction_balanced();

-- The sum of each ledger account's entries per coin, kept in the same transaction as the entries.
-- Mining accounts never go below zero; the pool's accounts may (pool:pps is what PPS has cost).
create table balances (
  ledger_account_id bigint not null references ledger_accounts (id),
  coin text not null references coins (ticker),
  amount numeric(40, 0) not null default 0,
  may_be_negative boolean not null,
  updated_at timestamptz not null default now(),
  primary key (ledger_account_id, coin),
  check (may_be_negative or amount >= 0)
);

-- Fractions of a smallest unit earned but not yet credited (a small miner earns less than a satoshi
-- per share batch), per kind of credit. Carried to the next credit; never negative, always below one
-- unit. Whole units credited + fractions carried = exact PPS value, to 18 decimals of a unit.
create table pps_accruals (
  ledger_account_id bigint not null references ledger_accounts (id),
  coin text not null references coins (ticker),
  kind text not null check (kind in ('pps', 'fee', 'referral', 'redirect_in')),
  -- The account whose shares earn it, for referral rewards and redirects (0 otherwise), so each
  -- referred account's rewards are credited and reported on their own.
  source_account_id bigint not null default 0,
  fraction numeric not null check (fraction >= 0 and fraction < 1),
  primary key (ledger_account_id, coin, kind, source_account_id)
);

-- The PPS value of each account's shares in a batch that could not be credited at once because a
-- price it needs was stale, in smallest units of the coin mined (exact, fractional). The pending
-- credit job credits them once prices are fresh; credited_at is set in that same transaction.
create table pps_credits (
  batch_id uuid not null,
  account_id bigint not null references accounts (id),
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  coin text not null,
  accepted_difficulty numeric not null check (accepted_difficulty >= 0),
  network_difficulty numeric not null check (network_difficulty > 0),
  reward numeric(40, 0) not null check (reward >= 0),
  value numeric not null check (value >= 0),
  interval_end timestamptz not null,
  credited_at timestamptz,
  -- Null when the value was too small to credit a whole unit to anyone (it stays in pps_accruals).
  ledger_transaction_id bigint references ledger_transactions (id),
  primary key (batch_id, account_id)
);

create index pps_credits_uncredited on pps_credits (interval_end) where credited_at is null;

-- Conversion settings: which coins an account's earnings are credited in, per algorithm or one list
-- for all algorithms ('all', used when accounts.conversion_all_algorithms is set).
create table conversion_settings (
  account_id bigint not null references accounts (id),
  algorithm text not null
    check (algorithm in ('all', 'scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  ticker text not null references coins (ticker),
  proportion numeric not null check (proportion >= 0 and proportion <= 100),
  primary key (account_id, algorithm, ticker)
);

alter table accounts add column conversion_all_algorithms boolean not null default false;

-- Payout settings per account and coin: threshold (coin amount) and interval (hours).
create table payout_settings (
  account_id bigint not null references accounts (id),
  ticker text not null references coins (ticker),
  threshold numeric not null check (threshold > 0),
  interval_hours numeric not null check (interval_hours > 0),
  -- Set to 24 hours after an address change: no payout of this coin before then.
  paused_until timestamptz,
  updated_at timestamptz not null default now(),
  primary key (account_id, ticker)
);

create table payout_addresses (
  account_id bigint not null,
  ticker text not null,
  position integer not null check (position >= 0),
  address text not null check (address <> ''),
  proportion numeric not null check (proportion >= 0 and proportion <= 100),
  primary key (account_id, ticker, position),
  foreign key (account_id, ticker) references payout_settings (account_id, ticker) on delete cascade
);

-- A payout is one wallet transaction paying one or more accounts in one coin.
--   pending: written, balances debited, no wallet call yet;
--   sending: the wallet call may have happened (reconciled by idempotency key, never resent blindly);
--   sent: the wallet returned a txid; failed: nothing was sent, balances restored.
create table payouts (
  id bigint generated always as identity primary key,
  idempotency_key text not null unique,
  coin text not null references coins (ticker),
  status text not null check (status in ('pending', 'sending', 'sent', 'failed')),
  total numeric(40, 0) not null check (total > 0),
  fee numeric(40, 0) check (fee >= 0),
  txid text,
  demo boolean not null,
  error text,
  created_at timestamptz not null default now(),
  sending_at timestamptz,
  sent_at timestamptz,
  failed_at timestamptz,
  check ((status = 'sent') = (txid is not null)),
  check ((status = 'failed') = (error is not null))
);

create index payouts_status on payouts (status) where status in ('pending', 'sending');
create index payouts_created_at on payouts (created_at desc);
create unique index payouts_coin_txid on payouts (coin, txid) where txid is not null;

create table payout_items (
  payout_id bigint not null references payouts (id),
  account_id bigint not null references accounts (id),
  address text not null,
  amount numeric(40, 0) not null check (amount > 0),
  primary key (payout_id, account_id, address)
);

create index payout_items_account on payout_items (account_id, payout_id);

-- The demo network's wallet: what it "sent", with txids marked as demo. Never a real transaction.
create table demo_wallet_transactions (
  txid text primary key check (txid like 'demo%'),
  coin text not null,
  comment text not null,
  outputs jsonb not null,
  total numeric(40, 0) not null,
  created_at timestamptz not null default now()
);

create index demo_wallet_transactions_comment on demo_wallet_transactions (comment);

-- Found blocks: confirmations seen and when the block matured or was orphaned.
alter table blocks
  add column confirmations integer not null default 0 check (confirmations >= 0),
  add column settled_at timestamptz;
