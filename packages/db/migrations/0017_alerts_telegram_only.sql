-- Offline-worker alerts on Telegram only (docs/notifications.md, "Telegram"): a miner with a linked
-- chat may ask for the alerts there and not by e-mail as well. The e-mail is left out only while the
-- alert really goes to Telegram (a linked chat, Telegram notifications on); otherwise it is e-mailed.
alter table users add column offline_worker_telegram_only boolean not null default false;

-- An alert left out of e-mail whose Telegram message ends undelivered (the chat blocked the bot or
-- was unlinked, Telegram notifications turned off while it waited, or its attempts ran out) is
-- e-mailed after all: every minute the alert check looks for such messages of the last day. This
-- index keeps that look-up to the failed Telegram alerts instead of the whole outbox.
create index notifications_failed_telegram_alerts on notifications (created_at)
  where status = 'failed' and channel = 'telegram' and kind in ('worker-offline', 'worker-online');
