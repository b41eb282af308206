import { describe, expect, it } from 'vitest';
import type { RpcCaller } from '../rpc/client.js';
import { RpcError } from '../rpc/errors.js';
import { blockStatus } from './blockStatus.js';

const HASH = '5c'.repeat(32);

function daemon(answer: () => unknown): RpcCaller & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    async call(method, params = []) {
      calls.push([method, ...params]);
      return answer();
    },
  };
}

function rpcError(rpcCode: number, message: string): RpcError {
  return new RpcError('rpc', message, { method: 'getblockheader', daemon: 'http://127.0.0.1:19332/', rpcCode });
}

describe('blockStatus', () => {
  it('is in the main chain with the daemon’s confirmations and height', async () => {
    const rpc = daemon(() => ({ hash: HASH, confirmations: 3, height: 431, previousblockhash: '00'.repeat(32) }));
    expect(await blockStatus(rpc, HASH.toUpperCase())).toEqual({
      kind: 'in-main-chain',
      confirmations: 3,
      height: 431,
    });
    expect(rpc.calls).toEqual([['getblockheader', HASH, true]]);
  });

  it('is orphaned when the daemon puts it off its best chain (confirmations -1)', async () => {
    const rpc = daemon(() => ({ confirmations: -1, height: 431 }));
    expect(await blockStatus(rpc, HASH)).toEqual({ kind: 'orphaned', height: 431 });
  });

  it('is not found when the daemon has never seen it', async () => {
    const rpc = daemon(() => {
      throw rpcError(-5, 'Block not found');
    });
    expect(await blockStatus(rpc, HASH)).toEqual({ kind: 'not-found' });
  });

  it('passes on every other failure, so an unreachable daemon is never taken for a lost block', async () => {
    const failures = [
      new RpcError('unreachable', 'ECONNREFUSED', { method: 'getblockheader', daemon: 'd' }),
      rpcError(-28, 'Loading block index...'),
    ];
    for (const failure of failures) {
      const rpc = daemon(() => {
        throw failure;
      });
      await expect(blockStatus(rpc, HASH)).rejects.toBe(failure);
    }
  });

  it('refuses replies it cannot read and hashes that are not hashes', async () => {
    const replies = [null, { confirmations: 0, height: 1 }, { confirmations: -2, height: 1 }, { confirmations: 1 }];
    for (const reply of replies) {
      const rpc = daemon(() => reply);
      await expect(blockStatus(rpc, HASH)).rejects.toMatchObject({ kind: 'malformed' });
    }
    const rpc = daemon(() => ({ confirmations: 1, height: 1 }));
    await expect(blockStatus(rpc, 'abc')).rejects.toThrow(RangeError);
    expect(rpc.calls).toHaveLength(0);
  });
});
