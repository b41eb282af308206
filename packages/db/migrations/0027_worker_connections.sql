-- Connection history (docs/dashboard.md, "Connection history"): each stratum connection that logged
-- in as a worker, and how it ended, as the stratum nodes report them in their share batches (so they
-- travel the same durable bus and are written once with the batch). By account, algorithm and worker
-- name rather than worker id: a connection can end before its worker's first share creates the row.
-- Kept as long as the worker-hour rows (8 days).
create table worker_connections (
  id bigserial primary key,
  account text not null,
  algorithm text not null,
  worker text not null,
  node text not null,
  -- The session's id on its node: a connect and its disconnect share it.
  session text not null check (char_length(session) between 1 and 64),
  event text not null check (event in ('connect', 'disconnect')),
  -- Why it ended (a disconnect only): 'closed by miner', 'idle', 'too many bad shares', 'shutdown', ...
  reason text check (reason is null or char_length(reason) between 1 and 200),
  -- The miner's address range (/24 or /48), as the sessions list shows; never the full address.
  ip_range text check (ip_range is null or char_length(ip_range) <= 64),
  user_agent text check (user_agent is null or char_length(user_agent) <= 200),
  at timestamptz not null,
  unique (node, session, event)
);

create index worker_connections_worker on worker_connections (account, algorithm, worker, at desc);
create index worker_connections_at on worker_connections (at);
