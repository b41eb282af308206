-- Merged mining (docs/money.md, "Merged mining"): the aux chains a SCRYPT coin is merge-mined with
-- (Dogecoin, Bellscoin) value the same shares again, each at its own block value and network
-- difficulty. network_states keeps the coin each algorithm mines; this keeps the newest state of
-- each aux chain beside it, for profitability, the public stats and crediting batches that carry none.
create table merged_network_states (
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  coin text not null,
  height bigint not null check (height >= 0),
  reward numeric(40, 0) not null check (reward >= 0),
  difficulty numeric not null check (difficulty > 0),
  demo boolean not null,
  observed_at timestamptz not null,
  primary key (algorithm, coin)
);
