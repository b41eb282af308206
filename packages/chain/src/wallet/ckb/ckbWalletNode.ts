/**
 * The node calls the CKB wallet makes (nervosnetwork/ckb rpc/README.md: Indexer get_cells and
 * get_cells_capacity, Chain get_transaction, get_live_cell, get_tip_block_number and
 * get_fee_rate_statistics, Pool send_transaction), replies read strictly: a reply of the wrong shape is a
 * CkbEncodingError naming the field, never a wrong amount.
 */
import { parseScript } from '../../ckb/parse.js';
import type { CkbJsonScript, CkbJsonTransaction } from '../../ckb/types.js';
import {
  CkbEncodingError,
  parseCkbBytes,
  parseCkbHash,
  parseCkbSafeUint,
  parseCkbUint,
  toCkbUint,
} from '../../ckb/uint.js';
import type { RpcCaller } from '../../rpc/client.js';
import type { PlainCell } from './ckbPayout.js';

/**
 * The indexer's search for plain cells of a lock: exact args, no type script (script_len_range [0, 1))
 * and empty data (output_data_len_range [0, 1)), so cells holding tokens or data are never spent.
 */
function plainCellsKey(lock: CkbJsonScript): Record<string, unknown> {
  return {
    script: lock,
    script_type: 'lock',
    script_search_mode: 'exact',
    filter: { script_len_range: ['0x0', '0x1'], output_data_len_range: ['0x0', '0x1'] },
    with_data: false,
  };
}

export type CkbTxStatus =
  | { status: 'pending' | 'proposed' | 'unknown' }
  | { status: 'committed'; blockNumber: number; blockHash: string }
  | { status: 'rejected'; reason: string };

export class CkbWalletNode {
  constructor(private readonly rpc: RpcCaller) {}

  /** Every live plain cell of `lock`, page by page (the cursor of each page's last cell). */
  async plainCells(lock: CkbJsonScript, pageSize: number): Promise<PlainCell[]> {
    const cells: PlainCell[] = [];
    let after: string | null = null;
    for (;;) {
      const reply = object(
        await this.rpc.call('get_cells', [plainCellsKey(lock), 'asc', toCkbUint(pageSize, 32), after]),
        'result',
      );
      if (!Array.isArray(reply.objects)) throw new CkbEncodingError('result.objects', 'expected an array');
      reply.objects.forEach((item, i) => {
        const field = `result.objects[${i}]`;
        const cell = object(item, field);
        const output = object(cell.output, `${field}.output`);
        const outLock = parseScript(output.lock, `${field}.output.lock`);
        // The filter asked for these; a cell with a type script or another lock is never spent blindly.
        if (output.type !== null && output.type !== undefined) {
          throw new CkbEncodingError(`${field}.output.type`, 'the indexer returned a cell with a type script');
        }
        if (JSON.stringify(outLock) !== JSON.stringify(lock)) {
          throw new CkbEncodingError(`${field}.output.lock`, 'the indexer returned a cell of another lock');
        }
        const outPoint = object(cell.out_point, `${field}.out_point`);
        cells.push({
          txHash: parseCkbHash(outPoint.tx_hash, `${field}.out_point.tx_hash`),
          index: Number(parseCkbUint(outPoint.index, `${field}.out_point.index`, 32)),
          capacity: parseCkbUint(output.capacity, `${field}.output.capacity`),
        });
      });
      if (reply.objects.length < pageSize) return cells;
      const cursor = parseCkbBytes(reply.last_cursor, 'result.last_cursor');
      // A cursor that does not move would page forever.
      if (cursor === after) throw new CkbEncodingError('result.last_cursor', 'the same cursor as the page before');
      after = cursor;
    }
  }

  /** The capacity of the plain cells of `lock` (get_cells_capacity with the same search). */
  async plainCapacity(lock: CkbJsonScript): Promise<bigint> {
    const reply = await this.rpc.call('get_cells_capacity', [plainCellsKey(lock)]);
    if (reply === null) return 0n;
    return parseCkbUint(object(reply, 'result').capacity, 'result.capacity');
  }

  /** The median of get_fee_rate_statistics (shannons per 1000 bytes), or undefined when the node has none. */
  async medianFeeRate(): Promise<bigint | undefined> {
    const reply = await this.rpc.call('get_fee_rate_statistics', []);
    if (reply === null) return undefined;
    return parseCkbUint(object(reply, 'result').median, 'result.median');
  }

  /** send_transaction; the node's hash. */
  async sendTransaction(tx: CkbJsonTransaction, validator: 'passthrough' | 'well_known_scripts_only'): Promise<string> {
    return parseCkbHash(await this.rpc.call('send_transaction', [tx, validator]), 'result');
  }

  /** get_transaction(hash, verbosity 1: the status only). A null reply (older nodes) is `unknown`. */
  async transactionStatus(hash: string): Promise<CkbTxStatus> {
    const reply = await this.rpc.call('get_transaction', [hash, '0x1']);
    if (reply === null) return { status: 'unknown' };
    const status = object(object(reply, 'result').tx_status, 'result.tx_status');
    switch (status.status) {
      case 'pending':
      case 'proposed':
      case 'unknown':
        return { status: status.status };
      case 'committed':
        return {
          status: 'committed',
          blockNumber: parseCkbSafeUint(status.block_number, 'result.tx_status.block_number'),
          blockHash: parseCkbHash(status.block_hash, 'result.tx_status.block_hash'),
        };
      case 'rejected':
        return { status: 'rejected', reason: typeof status.reason === 'string' ? status.reason : 'no reason given' };
      default:
        throw new CkbEncodingError('result.tx_status.status', `unknown status ${JSON.stringify(status.status)}`);
    }
  }

  /** get_live_cell(out_point, false): `live`, `dead` or `unknown`. */
  async cellStatus(txHash: string, index: number): Promise<'live' | 'dead' | 'unknown'> {
    const reply = object(
      await this.rpc.call('get_live_cell', [{ tx_hash: txHash, index: toCkbUint(index, 32) }, false]),
      'result',
    );
    if (reply.status === 'live' || reply.status === 'dead' || reply.status === 'unknown') return reply.status;
    throw new CkbEncodingError('result.status', `unknown cell status ${JSON.stringify(reply.status)}`);
  }

  async tipNumber(): Promise<number> {
    return parseCkbSafeUint(await this.rpc.call('get_tip_block_number', []), 'result');
  }
}

function object(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CkbEncodingError(field, 'expected an object');
  }
  return value as Record<string, unknown>;
}
