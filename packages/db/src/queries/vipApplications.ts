import type { Executor } from '../schema.js';

export interface NewVipApplication {
  name: string;
  email: string;
  /** '+44 7911123456', or null. */
  phone: string | null;
  operations: string;
  createdAt: Date;
}

export interface VipApplication extends NewVipApplication {
  id: bigint;
  emailedAt: Date | null;
}

/** Stores an application; returns its id. */
export async function insertVipApplication(db: Executor, application: NewVipApplication): Promise<bigint> {
  const row = await db
    .insertInto('vip_applications')
    .values({
      name: application.name,
      email: application.email,
      phone: application.phone,
      operations: application.operations,
      created_at: application.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Records that the operator's e-mail about an application was handed to the mail server. */
export async function markVipApplicationEmailed(db: Executor, id: bigint, at: Date): Promise<void> {
  await db.updateTable('vip_applications').set({ emailed_at: at }).where('id', '=', id).execute();
}

/** The newest applications first. */
export async function vipApplications(db: Executor, limit = 100): Promise<VipApplication[]> {
  const rows = await db
    .selectFrom('vip_applications')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    operations: r.operations,
    createdAt: r.created_at,
    emailedAt: r.emailed_at,
  }));
}
