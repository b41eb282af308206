-- Watcher links (docs/dashboard.md, "Watcher links"): read-only links to one account's dashboard,
-- several per account, each with a name, a scope, an optional expiry, its last use and revocation.
-- The account's original observer key (accounts.observer_key) stays the default link: it shows
-- everything, never expires and is replaced, not revoked (Settings' regenerate); its last use is kept
-- beside it.
create table watcher_links (
  id bigint generated always as identity primary key,
  account_id bigint not null references accounts (id),
  -- The link's secret, as the observer routes take it (observer_key=...).
  key text not null unique check (char_length(key) between 32 and 200),
  name text not null check (char_length(name) between 1 and 64),
  -- What it shows: mining (hashrate, workers), revenue (and balances, earnings), payouts (and payouts).
  scope text not null check (scope in ('mining', 'revenue', 'payouts')),
  created_at timestamptz not null,
  expires_at timestamptz check (expires_at is null or expires_at > created_at),
  last_used_at timestamptz,
  revoked_at timestamptz
);

create index watcher_links_account on watcher_links (account_id, created_at);

alter table accounts add column observer_key_used_at timestamptz;
