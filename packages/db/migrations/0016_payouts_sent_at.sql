-- Payout notices on Telegram (docs/notifications.md, "Telegram"): every minute the notifier looks for
-- payouts sent in the last 24 hours. Without this index that search starts from the linked users and
-- reads every payout item in their history; with it, it starts from the day's payouts.
create index payouts_sent_at on payouts (sent_at) where status = 'sent';
