-- Offline-worker alerts on Telegram only (docs/notifications.md, "Telegram"): a miner with a linked
-- chat may ask for the alerts there and not by e-mail as well. The e-mail is left out only while the
-- alert really goes to Telegram (a linked chat, Telegram notifications on); otherwise it is e-mailed.
alter table users add column offline_worker_telegram_only boolean not null default false;

-- An alert left out of e-mail whose Telegram message ends undelivered (the chat blocked the bot or
-- was unlinked, Telegram notifications turned off while it waited, or its attempts ran out), or is
-- still not delivered 16 minutes on (the bot cannot reach Telegram, its token was revoked), is
-- e-mailed after all: every minute the alert check looks for such messages of the last day. This
-- index keeps that look-up to the Telegram alerts not sent instead of the whole outbox.
create index notifications_unsent_telegram_alerts on notifications (created_at)
  where status in ('pending', 'failed') and channel = 'telegram' and kind in ('worker-offline', 'worker-online');
