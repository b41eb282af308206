import type { Executor } from '../schema.js';

/**
 * Alerts to the pool's operators (migration 0012, docs/admin.md "Alerts by e-mail"): raised once when a
 * condition starts, e-mailed once, cleared when it ends.
 */

export interface OperatorAlert {
  key: string;
  subject: string;
  body: string;
  raisedAt: Date;
}

/**
 * The condition `key` holds now. Returns the alert when it must be e-mailed: it just started (no
 * open alert of that key), or it was raised earlier and its e-mail has not gone out yet. Undefined
 * while an alert already e-mailed stays open.
 */
export async function raiseOperatorAlert(
  db: Executor,
  alert: { key: string; subject: string; body: string },
  at: Date,
): Promise<OperatorAlert | undefined> {
  const row = await db
    .insertInto('operator_alerts')
    .values({ key: alert.key, subject: alert.subject, body: alert.body, raised_at: at })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        // A cleared alert starts again; an open one keeps when it was raised and what it said.
        const wasCleared = eb('operator_alerts.cleared_at', 'is not', null);
        const newIfCleared = <C extends 'subject' | 'body' | 'raised_at'>(column: C) =>
          eb
            .case()
            .when(wasCleared)
            .then(eb.ref(`excluded.${column}`))
            .else(eb.ref(`operator_alerts.${column}`))
            .end();
        return {
          subject: newIfCleared('subject'),
          body: newIfCleared('body'),
          raised_at: newIfCleared('raised_at'),
          notified_at: eb.case().when(wasCleared).then(null).else(eb.ref('operator_alerts.notified_at')).end(),
          cleared_at: null,
        };
      }),
    )
    .returning(['key', 'subject', 'body', 'raised_at', 'notified_at'])
    .executeTakeFirstOrThrow();
  if (row.notified_at !== null) return undefined;
  return { key: row.key, subject: row.subject, body: row.body, raisedAt: row.raised_at };
}

/** The alert's e-mail went out. */
export async function markOperatorAlertNotified(db: Executor, key: string, at: Date): Promise<void> {
  await db.updateTable('operator_alerts').set({ notified_at: at }).where('key', '=', key).execute();
}

/** The condition `key` no longer holds: its open alert (if any) is cleared. True when one was. */
export async function clearOperatorAlert(db: Executor, key: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('operator_alerts')
    .set({ cleared_at: at })
    .where('key', '=', key)
    .where('cleared_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
