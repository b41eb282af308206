import { adminUsers, clearOperatorAlert, type DB, markOperatorAlertNotified, raiseOperatorAlert } from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { Mailer } from '../services/mail.js';
import type { Log } from './types.js';

/**
 * E-mails to the pool's admins when a condition that needs the operator starts (docs/admin.md, "Alerts
 * by e-mail"): one e-mail when it starts, none while it lasts, another only after it ended and started
 * again. The state is in the database (operator_alerts), so a restart sends nothing twice, and an
 * e-mail that could not be sent is tried again at the next check rather than lost.
 */
export class OperatorAlerts {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly mailer: Mailer,
    private readonly log: Log,
  ) {}

  /** The condition `key` holds at `now`. */
  async raise(key: string, subject: string, body: string, now: Date): Promise<void> {
    const alert = await raiseOperatorAlert(this.db, { key, subject, body }, now);
    if (!alert) return;
    const admins = await adminUsers(this.db);
    if (admins.length === 0) {
      this.log.warn(
        { alert: key },
        'no admin to e-mail the alert to (lodestone admin grant <e-mail>); tried again next time',
      );
      return;
    }
    try {
      for (const admin of admins) await this.mailer.send({ to: admin.email, subject: alert.subject, text: alert.body });
    } catch (error) {
      this.log.error({ alert: key, err: error }, 'the alert e-mail could not be sent; tried again next time');
      return;
    }
    await markOperatorAlertNotified(this.db, key, now);
    this.log.info({ alert: key, admins: admins.length }, 'alert e-mailed to the admins');
  }

  /** The condition `key` no longer holds. */
  async clear(key: string, now: Date): Promise<void> {
    if (await clearOperatorAlert(this.db, key, now)) this.log.info({ alert: key }, 'alert cleared');
  }
}
