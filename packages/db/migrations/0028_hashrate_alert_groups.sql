-- Hashrate alerts per worker group (docs/notifications.md, "Hashrate alerts"): a rule may watch one
-- group of the account's workers (packages/domain/src/workerGroups.ts: the worker's label, else its
-- name's prefix, `rack1-`) instead of the whole account. Null: the whole account, as before. Groups are
-- computed, not stored, so the rule names one by its text: a group that has no workers today is
-- not judged until it has some again.
alter table hashrate_alerts
  add column worker_group text check (char_length(worker_group) between 1 and 40);
