-- The newest valuation of a coin (what its shares are valued by now, GET /v1/pool/schemes): one index
-- probe per coin instead of a scan of one row per share batch.
create index pps_valuations_newest on pps_valuations (coin, valued_at desc);
