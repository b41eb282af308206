-- Worker health (docs/dashboard.md, "Workers"): each worker's refused shares by reason (stale,
-- duplicate, low difficulty, job not found, ...) per UTC hour, as the share batches report them. Only
-- workers with refusals have rows; kept as long as the worker-hour rows (8 days).
create table worker_rejects_hour (
  worker_id bigint not null references workers (id) on delete cascade,
  hour timestamptz not null check (extract(epoch from hour) % 3600 = 0),
  reason text not null check (reason ~ '^[a-z0-9-]{1,40}$'),
  shares bigint not null check (shares > 0),
  primary key (worker_id, hour, reason)
);

create index worker_rejects_hour_hour on worker_rejects_hour (hour);
