-- A chain's mean block interval as its newest job reports it, where it changes (CKB retargets every
-- epoch so that an epoch lasts four hours: docs/blocks.md, "Network"). Null: the interval is the coin
-- catalogue's fixed block_seconds (or unknown). The stats page works the network hashrate out with it.
alter table network_states
  add column block_seconds numeric check (block_seconds is null or block_seconds > 0);
alter table merged_network_states
  add column block_seconds numeric check (block_seconds is null or block_seconds > 0);
