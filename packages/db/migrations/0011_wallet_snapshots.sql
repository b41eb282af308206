-- What each hot wallet held when the jobs role last read it (docs/admin.md, "Treasury"). The wallets'
-- keys live only in the jobs role, so the API and the `lodestone treasury` command never ask a wallet:
-- the wallet-snapshots job reads every hot wallet once a minute and writes one row per coin here.
-- A read that fails records its error and keeps the last good figures with the time they were read.
-- (Numbered 0011: 0010 belongs to another change of the same issue, issue 19.)
create table wallet_snapshots (
  coin text primary key references coins (ticker),
  -- The pool's address on the chain (pool-signed wallets); null for a node's wallet, which holds many.
  address text,
  -- The demo network's wallet (unlimited, moves no coins).
  demo boolean not null,
  -- What the wallet must keep (the configured min_balance), smallest units of coin.
  min_balance numeric(40, 0) not null check (min_balance >= 0),
  -- The last good reading: spendable balance of coin in smallest units, null until one succeeded.
  balance numeric(40, 0) check (balance >= 0),
  -- Pool-signed wallets (null for a node's wallet, whose fee comes out of min_balance): the most outputs
  -- one transaction may pay, and the most one such transaction may cost in fees (feeEstimate(max_outputs),
  -- units of the fee coin), read with the balance.
  max_outputs integer check (max_outputs > 0),
  fee_per_transaction numeric(40, 0) check (fee_per_transaction >= 0),
  -- Tokens only (USDC's gas is paid in ETH): the coin fees are paid in and its spendable balance; null
  -- when fees are paid in coin itself.
  fee_coin text references coins (ticker) check (fee_coin <> coin),
  fee_balance numeric(40, 0) check (fee_balance >= 0),
  -- When the last good reading was taken; null until one succeeded.
  read_at timestamptz,
  -- The last attempt, and its error (null when it succeeded).
  checked_at timestamptz not null,
  error text,
  check ((balance is null) = (read_at is null)),
  check (fee_coin is not null or fee_balance is null)
);
