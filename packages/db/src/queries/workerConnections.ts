import type { AlgorithmKey, ConnectionEvent } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/*
 * Worker connection history (migration 0027; docs/dashboard.md, "Connection history"): the connects
 * and disconnects the stratum nodes report in their share batches, written in the batch's own
 * transaction, read per worker by the dashboard, pruned with the worker-hour rows.
 */

/**
 * Adds a batch's connection events. A batch is applied once, but a node that published one again
 * under a new id after a crash between journal and bus must not double the history: (node, session,
 * event) is unique and a repeat is skipped.
 */
export async function addWorkerConnections(
  db: Executor,
  node: string,
  algorithm: AlgorithmKey,
  events: readonly ConnectionEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('worker_connections')
    .values(
      events.map((e) => ({
        account: e.account,
        algorithm,
        worker: e.worker,
        node,
        session: e.session,
        event: e.event,
        reason: e.reason ?? null,
        ip_range: e.ipRange ?? null,
        user_agent: e.userAgent ?? null,
        at: new Date(e.at),
      })),
    )
    .onConflict((oc) => oc.columns(['node', 'session', 'event']).doNothing())
    .execute();
}

export interface WorkerConnectionRow {
  at: Date;
  event: 'connect' | 'disconnect';
  reason: string | null;
  ipRange: string | null;
  userAgent: string | null;
  node: string;
}

/** A worker's newest `limit` events since `from`, newest first. */
export async function workerConnectionsSince(
  db: Executor,
  worker: { account: string; algorithm: AlgorithmKey; name: string },
  from: Date,
  limit: number,
): Promise<WorkerConnectionRow[]> {
  const rows = await db
    .selectFrom('worker_connections')
    .select(['at', 'event', 'reason', 'ip_range', 'user_agent', 'node'])
    .where('account', '=', worker.account)
    .where('algorithm', '=', worker.algorithm)
    .where('worker', '=', worker.name)
    .where('at', '>=', from)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    at: r.at,
    event: r.event,
    reason: r.reason,
    ipRange: r.ip_range,
    userAgent: r.user_agent,
    node: r.node,
  }));
}

/** Deletes events before `before`, at most `limit` a call; answers how many. */
export async function pruneWorkerConnections(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from worker_connections
     where id in (select id from worker_connections where at < ${before} limit ${limit})
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
