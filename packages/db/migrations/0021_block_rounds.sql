-- Blocks and luck (docs/blocks.md). A round is the work the pool did on one chain since its previous
-- block: accounting adds each share batch's accepted difficulty to the round of the chain it was
-- mined against (and of each chain merge-mined with it), and recording a found block closes its
-- chain's round into the block row. A block's effort is then its round over its network difficulty.

create table block_rounds (
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  coin text not null check (coin ~ '^[A-Z0-9]{2,10}$'),
  -- Accepted share difficulty since the round started.
  accepted_difficulty numeric not null default 0 check (accepted_difficulty >= 0),
  started_at timestamptz not null,
  -- The difficulty of the target blocks are found at, from the newest batch: the network's, or on
  -- the demo network its own easy target (its shares are valued at a real coin's difficulty instead).
  block_difficulty numeric check (block_difficulty > 0),
  updated_at timestamptz not null,
  primary key (algorithm, coin)
);

-- Null on blocks recorded before this migration (their effort is unknown) and on refused blocks.
alter table blocks
  add column network_difficulty numeric check (network_difficulty > 0),
  add column round_difficulty numeric check (round_difficulty >= 0),
  -- Confirmations a pending block needs to mature, as the confirmations job last applied them; null
  -- before its first run or where the chain decides maturity by its own rule.
  add column confirmations_required integer check (confirmations_required >= 0);

-- The Blocks page: one chain's blocks, newest first.
create index blocks_algorithm_coin_found_at on blocks (algorithm, coin, found_at desc);

-- A found block on a public explorer ({hash}), and the chain's target block interval in seconds,
-- from which the network hashrate is derived (difficulty × hashes per difficulty ÷ interval). Null
-- where the coin is not mined, has no explorer page we can link without more than the hash (Kadena
-- names the chain in its block links), or has no fixed interval (CKB retargets its interval, 8 to
-- 48 s, every epoch).
alter table coins
  add column explorer_block_url text check (explorer_block_url is null or explorer_block_url like '%{hash}%'),
  add column block_seconds numeric check (block_seconds > 0);

update coins set explorer_block_url = 'https://mempool.space/block/{hash}', block_seconds = 600 where ticker = 'BTC';
update coins set explorer_block_url = 'https://litecoinspace.org/block/{hash}', block_seconds = 150 where ticker = 'LTC';
update coins set explorer_block_url = 'https://blockchair.com/dogecoin/block/{hash}', block_seconds = 60 where ticker = 'DOGE';
-- DigiByte: 15 s blocks shared by five algorithms, 75 s for each.
update coins set explorer_block_url = 'https://digiexplorer.info/block/{hash}', block_seconds = 75 where ticker = 'DGB';
update coins set explorer_block_url = 'https://explorer.nervos.org/block/{hash}' where ticker = 'CKB';
-- Kadena: 30 s blocks on each of its 20 braided chains, one block every 1.5 s across them.
update coins set block_seconds = 1.5 where ticker = 'KDA';
-- Dash: 2.625 minutes.
update coins set explorer_block_url = 'https://blockchair.com/dash/block/{hash}', block_seconds = 157.5 where ticker = 'DASH';
-- Kaspa: ten blocks a second since the Crescendo hard fork (May 2025).
update coins set explorer_block_url = 'https://explorer.kaspa.org/blocks/{hash}', block_seconds = 0.1 where ticker = 'KAS';
update coins set block_seconds = 60 where ticker = 'BELLS';
update coins set explorer_block_url = 'https://blockchair.com/bitcoin-cash/block/{hash}', block_seconds = 600 where ticker = 'BCH';
