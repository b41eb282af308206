-- The time of a worker's last accepted share, to the millisecond, as the stratum node saw it. The
-- offline alert said "last accepted share 02:18" for a rig that stopped at 02:17:12, because it read
-- the end of the last minute with an accepted share; the workers table shows it as "Last share".
-- last_share_at counts refused shares too, so it cannot say when a worker last earned. Null until a
-- batch from a node that reports it (older rows: the alert falls back to the minute statistics).
alter table workers add column last_accepted_at timestamptz;
