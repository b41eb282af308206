-- Payouts from wallets the pool signs itself: ETH and USDC, CKB, Kaspa, Kadena (docs/money.md, "Payouts
-- from pool-signed wallets"). Each transaction signed for a payout is stored here, in the transaction
-- that moves the payout to 'sending', before it is ever broadcast: after a crash the very same bytes
-- are broadcast again, and a second payment is never signed. A payout has one row per attempt; only a
-- fee replacement adds one, spending exactly what the first spends (the same EVM nonce), so at most one
-- attempt can ever be mined.
--   live: may be mined (or is); replaced: a later attempt took its place in the mempool, though it
--   may still be the one mined; dead: can never be mined (its nonce or inputs went elsewhere, expired).
create table payout_transactions (
  id bigint generated always as identity primary key,
  payout_id bigint not null references payouts (id),
  coin text not null references coins (ticker),
  attempt integer not null check (attempt >= 1),
  txid text not null check (txid <> ''),
  raw text not null check (raw <> ''),
  -- The most it can cost, in units of fee_coin (USDC's gas is paid in ETH).
  fee numeric(40, 0) not null check (fee >= 0),
  fee_coin text not null,
  -- What no other transaction of the wallet may spend while this one can be mined: JSON array of text.
  spends jsonb not null,
  expires_at timestamptz,
  follow_from text,
  status text not null check (status in ('live', 'replaced', 'dead')),
  created_at timestamptz not null,
  unique (payout_id, attempt),
  unique (coin, txid)
);

create index payout_transactions_payout on payout_transactions (payout_id);

-- A sent payout of a pool-signed wallet is followed until it has the wallet's confirmations
-- (confirmed_at set); a reorganisation that removes it sets the count back.
alter table payouts
  add column confirmations integer not null default 0 check (confirmations >= 0),
  add column confirmed_at timestamptz;

create index payouts_unconfirmed on payouts (coin) where status = 'sent' and confirmed_at is null;
