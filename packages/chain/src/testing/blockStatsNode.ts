import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fakeDaemon, ok, reply } from './fakeDaemon.js';

/** One recorded getblockstats reply: the fields fixtures/bitcoin-core-getblockstats.json keeps. */
export interface RecordedBlockStats {
  blockhash: string;
  height: number;
  mediantime?: number;
  subsidy: number;
  time: number;
  totalfee: number;
  txs: number;
}

/**
 * Bitcoin Core's own recorded getblockstats replies (its functional test data, fixtures/README.md):
 * regtest blocks 101–103 with fees of 0, 3,740 and 56,860 satoshi, stamped at `mocktime` + 18 s.
 */
export function bitcoinCoreBlockStats(): {
  mocktime: number;
  stats: RecordedBlockStats[];
  derived: RecordedBlockStats[];
} {
  const file = new URL('./fixtures/bitcoin-core-getblockstats.json', import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Bitcoin Core's RPC_INVALID_PARAMETER (src/rpc/protocol.h). */
const RPC_INVALID_PARAMETER = -8;

/**
 * A bitcoin-family node over JSON-RPC whose best chain ends with the recorded blocks: getblockcount
 * is the highest one, and getblockstats answers for a recorded height with exactly the fields asked
 * for, as Bitcoin Core does (src/rpc/blockchain.cpp: unknown field names and heights outside the chain
 * are refused with -8). Heights below the recorded ones are refused too: a test that walks there reads
 * more than it should. `calls` lists the heights asked, in order.
 */
export async function startBlockStatsNode(
  recorded: readonly RecordedBlockStats[],
): Promise<{ url: string; calls: number[]; replace(stats: readonly RecordedBlockStats[]): void }> {
  let blocks = [...recorded];
  const calls: number[] = [];
  const fail = (res: ServerResponse, id: unknown, message: string) =>
    reply(res, 500, { result: null, error: { code: RPC_INVALID_PARAMETER, message }, id });
  const daemon = await fakeDaemon(({ method, params, id }, res) => {
    const tip = Math.max(...blocks.map((b) => b.height));
    if (method === 'getblockcount') return ok(res, id, tip);
    if (method !== 'getblockstats') {
      return reply(res, 404, { result: null, error: { code: -32601, message: 'Method not found' }, id });
    }
    const [height, fields] = params as [unknown, unknown];
    if (typeof height !== 'number' || !Number.isInteger(height)) return fail(res, id, 'height must be an integer');
    calls.push(height);
    if (height > tip) return fail(res, id, `Target block height ${height} after current tip ${tip}`);
    const block = blocks.find((b) => b.height === height);
    if (!block) return fail(res, id, `block ${height} is not in this stand-in's recording`);
    const names = fields === undefined ? Object.keys(block) : fields;
    if (!Array.isArray(names)) return fail(res, id, 'stats must be an array');
    const answer: Record<string, unknown> = {};
    for (const name of names) {
      if (typeof name !== 'string' || !(name in block))
        return fail(res, id, `Invalid selected statistic '${String(name)}'`);
      answer[name] = block[name as keyof RecordedBlockStats];
    }
    return ok(res, id, answer);
  });
  return {
    url: daemon.url(),
    calls,
    replace(stats) {
      blocks = [...stats];
    },
  };
}
