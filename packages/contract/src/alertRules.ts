/*
 * The zod-free rules of the hashrate alerts (docs/notifications.md, "Hashrate alerts"), which the website imports as
 * values to check a new rule the way the server does (alerts.ts holds the schemas).
 */

/** Rules an account may have. */
export const MAX_HASHRATE_ALERTS = 10;

/** The most characters of a rule's worker group (migration 0028; as many as a worker label has). */
export const MAX_ALERT_GROUP = 40;
export const ALERT_GROUP_TOO_LONG = `A group is at most ${MAX_ALERT_GROUP} characters`;

/**
 * A rule's worker group as typed: trimmed; empty means the whole account (null). Undefined when it is
 * too long, which is refused with ALERT_GROUP_TOO_LONG. Zod-free, so the website checks it the same way.
 */
export function alertGroupOf(text: string): string | null | undefined {
  const group = text.trim();
  if (group === '') return null;
  return group.length > MAX_ALERT_GROUP ? undefined : group;
}
