import { readFileSync } from 'node:fs';

/**
 * Three real Kaspa blocks in kaspad's RPC JSON shape, as text (u64 fields exact): lines of kaspanet/
 * rusty-kaspa testing/integration/testdata/dags_for_json_tests/goref-1060-tx-265-blocks/blocks.json.gz
 * at commit 593399eb0187764c11f7f5c3729ae63d4c8e6505 — the devnet genesis, block 2 and block 208 (see
 * kaspaHashing.test.ts, which checks their hashes and merkle roots). Served as templates by tests
 * that need real Kaspa jobs without a node.
 */
export function realKaspaBlocks(): string[] {
  return readFileSync(new URL('./fixtures/kaspa/goref-blocks.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n');
}
