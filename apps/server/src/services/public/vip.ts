import { type Executor, insertVipApplication, markVipApplicationEmailed } from '@lodestone/db';
import type { BackgroundTasks } from '../background.js';
import type { Mailer, MailMessage } from '../mail.js';

/**
 * VIP applications (Home's modal, POST /v1/email/hashrate; docs/public-api.md "VIP applications"):
 * each one is stored, then e-mailed to the operator (VIP_EMAIL, else SUPPORT_EMAIL) with the
 * applicant as Reply-To. The answer does not wait for the mail server: the stored row is the record,
 * and `emailed_at` stays null when the e-mail failed (the failure is logged as an error).
 */

export interface VipApplicationInput {
  name: string;
  email: string;
  /** '+44 7911123456', or null. */
  phone: string | null;
  operations: string;
}

export interface VipContext {
  db: Executor;
  now(): Date;
  mailer: Mailer;
  tasks: BackgroundTasks;
  /** Where applications go. */
  operatorEmail: string;
  poolName: string;
}

/** The operator's e-mail about an application (pure). */
export function vipApplicationMail(
  application: VipApplicationInput,
  meta: { id: bigint; receivedAt: Date; operatorEmail: string; poolName: string },
): MailMessage {
  return {
    to: meta.operatorEmail,
    replyTo: application.email,
    subject: `${meta.poolName}: VIP application from ${application.name}`,
    text: [
      'A miner applied for VIP service on the website.',
      '',
      `Name: ${application.name}`,
      `E-mail: ${application.email}`,
      `Phone: ${application.phone ?? 'not given'}`,
      `Received: ${meta.receivedAt.toISOString()}`,
      '',
      'Operation and hashrate:',
      application.operations,
      '',
      `Application #${meta.id}. Reply to this e-mail to answer the applicant.`,
    ].join('\n'),
  };
}

/** Stores the application and starts the operator's e-mail; returns the application's id. */
export async function submitVipApplication(ctx: VipContext, application: VipApplicationInput): Promise<bigint> {
  const receivedAt = ctx.now();
  const id = await insertVipApplication(ctx.db, { ...application, createdAt: receivedAt });
  const mail = vipApplicationMail(application, {
    id,
    receivedAt,
    operatorEmail: ctx.operatorEmail,
    poolName: ctx.poolName,
  });
  ctx.tasks.run('VIP application e-mail', async () => {
    await ctx.mailer.send(mail);
    await markVipApplicationEmailed(ctx.db, id, ctx.now());
  });
  return id;
}
