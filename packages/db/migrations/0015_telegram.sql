-- Telegram (docs/notifications.md, "Telegram"): a miner links one Telegram chat to their login with a
-- one-time code, and the pool's bot (polled by the jobs role) sends alerts and payout notices there.

-- One chat per user, one user per chat: linking a chat that was linked to someone else moves it.
create table telegram_links (
  user_id bigint primary key references users (id),
  chat_id bigint not null unique,
  -- The Telegram @username when the chat has one, shown in Settings so the miner sees which chat it is.
  telegram_username text,
  linked_at timestamptz not null
);

-- Link codes: the code travels in a t.me deep link (/start <code>), so only its SHA-256 is kept, the
-- way password-reset keys are. One live code per user (a new one replaces it); single use (consumed
-- with one delete … returning); short-lived.
create table telegram_link_codes (
  code_hash text primary key check (code_hash ~ '^[0-9a-f]{64}$'),
  user_id bigint not null unique references users (id),
  expires_at timestamptz not null,
  created_at timestamptz not null
);

-- The bot's own state, one row: the next update to ask for (getUpdates offset; kept here so a
-- restarted jobs role neither handles an update twice nor misses one) and the bot's @username as
-- getMe answered it (the api role builds t.me links with it without holding the token).
create table telegram_bot_state (
  id boolean primary key default true check (id),
  update_offset bigint not null default 0 check (update_offset >= 0),
  bot_username text,
  updated_at timestamptz not null
);

-- Unlinking (or a chat that blocked the bot) ends the user's pending Telegram messages at once.
create index notifications_user_channel on notifications (user_id, channel) where status = 'pending';
