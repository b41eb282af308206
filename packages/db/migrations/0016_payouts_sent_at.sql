-- Payout notices on Telegram (docs/notifications.md, "Telegram"): every minute the notifier looks for
-- payouts sent, and payouts failed after they were sent, in the last 24 hours. Without these indexes
-- that search starts from the linked users and reads every payout item in their history, or reads
-- every payout; with them, it starts from the day's payouts.
create index payouts_sent_at on payouts (sent_at) where status = 'sent';
create index payouts_failed_at on payouts (failed_at) where status = 'failed';
