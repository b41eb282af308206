-- Notifications to miners (docs/notifications.md): an outbox the jobs role sends from, and the state
-- behind the offline-worker alerts.
--
-- The outbox: one row per message to one user over one channel. Whatever decides a message (the
-- offline-worker check, later the monthly reports and Telegram) inserts a row in the same transaction
-- as the state change that caused it, with a dedupe key derived from what the message is about, so
-- a repeated or restarted run can never enqueue it twice (`on conflict (dedupe_key) do nothing`).
-- The sender job claims due rows, sends them, and marks them sent, or schedules a retry with back-off
-- (attempts, next_attempt_at, last_error) and, past a bound, marks them failed and logs an error.
create table notifications (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id),
  channel text not null check (channel in ('email', 'telegram')),
  -- What the message is about; also the preference an unsubscribe link turns off
  -- ('worker-offline' and 'worker-online' both belong to offline_worker_notification).
  kind text not null check (kind <> ''),
  dedupe_key text not null unique check (dedupe_key <> ''),
  -- Rendered when enqueued, in the channel's format; the sender adds the unsubscribe footer (it
  -- carries a signed token and the site's address, which belong to send time).
  subject text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null,
  last_error text,
  created_at timestamptz not null,
  sent_at timestamptz,
  check ((status = 'sent') = (sent_at is not null))
);

-- The sender's queue: only pending rows are in it.
create index notifications_due on notifications (next_attempt_at, id) where status = 'pending';
-- The rate limit counts e-mails sent in the last minute.
create index notifications_sent_at on notifications (sent_at) where sent_at is not null;

-- The miner's offline window for the alerts, in minutes; null: automatic (from each worker's own
-- expected share interval).
alter table users
  add column offline_worker_window_minutes integer
    check (offline_worker_window_minutes between 5 and 10080);

-- The alerts' hysteresis, one row per worker of a user who has the alerts on. A worker removed from
-- the dashboard takes its row with it (on delete cascade), so it is never alerted. `notified`: the
-- current state has been told to the miner (or needs no message: the first state seen of a worker,
-- when the alerts are turned on, is not news).
create table worker_alert_states (
  worker_id bigint primary key references workers (id) on delete cascade,
  offline boolean not null,
  -- Since when the worker is in this state (offline: its last accepted share).
  since timestamptz not null,
  notified boolean not null,
  checked_at timestamptz not null
);
