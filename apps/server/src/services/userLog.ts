import { appendUserLog, type Executor } from '@lodestone/db';

export interface LogEvent {
  userId: bigint;
  accountId?: bigint | null;
  name: string;
  value?: Record<string, unknown>;
}

/** Appends a security event to the user log (in the caller's transaction when given one). */
export function logEvent(db: Executor, now: Date, event: LogEvent): Promise<void> {
  return appendUserLog(db, { ...event, time: now });
}
