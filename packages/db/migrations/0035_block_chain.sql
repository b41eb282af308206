-- The chain a block is on where a network braids several (Kadena's chain id, from the work the block solved): Kadena's
-- explorer names a block by its chain and height, so the blocks page links it only knowing both (docs/blocks.md).
-- Null for coins of one chain, and for blocks recorded before this release until the confirmations job finds their
-- chain. Additive: a process from before this release records blocks without it.

alter table blocks add column chain integer check (chain >= 0);

-- A block explorer's template names the block by its hash or by its height (with its chain where there are several).
alter table coins drop constraint coins_explorer_block_url_check;
alter table coins add constraint coins_explorer_block_url_check
  check (explorer_block_url is null or explorer_block_url like '%{hash}%' or explorer_block_url like '%{height}%');

-- https://explorer.chainweb.com/about: "https://explorer.chainweb.com/mainnet/chain/[X]/height/[Y]".
update coins set explorer_block_url = 'https://explorer.chainweb.com/mainnet/chain/{chain}/height/{height}'
 where ticker = 'KDA';
