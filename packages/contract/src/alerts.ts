import { z } from 'zod';
import { ALERT_GROUP_TOO_LONG, alertGroupOf } from './alertRules.js';
import { algorithmKey } from './common.js';
import { miningAlgorithm } from './mining.js';

/*
 * Hashrate alerts (docs/notifications.md, "Hashrate alerts"): rules per account and algorithm beside
 * the offline alert — "hashrate below X" (a fixed X in H/s, or a percentage of the 24-hour average)
 * and "online workers below N" — sent on the user's alert channels when they turn and when they
 * recover. Managed at /v1/user/hashrate_alerts… by the account's owner.
 */

export const hashrateAlert = z.object({
  id: z.string(),
  algorithm: algorithmKey,
  kind: z.enum(['hashrate', 'workers']),
  /** kind hashrate: a fixed threshold in H/s, or null for the automatic one (`threshold_percent`). */
  threshold_hashrate: z.number().positive().nullable(),
  threshold_percent: z.number().int().min(10).max(95).nullable(),
  /** kind workers: the fewest online workers that is not an alert. */
  min_workers: z.number().int().positive().nullable(),
  /**
   * The worker group it watches (docs/dashboard.md, "Worker groups": a label, or a name prefix such as
   * `rack1-`); null: the whole account.
   */
  group: z.string().nullable(),
  /** The rule is below its threshold now (an alert was sent), since `changed_at`. */
  low: z.boolean(),
  changed_at: z.string().nullable(),
});
export type HashrateAlert = z.infer<typeof hashrateAlert>;

export const hashrateAlertsResponse = z.object({ alerts: z.array(hashrateAlert) });

/** A number from a form (text) or JSON; absent or empty: not given. */
const optionalNumber = (message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: message }).refine(Number.isFinite, message).optional(),
  );

/** POST /v1/user/hashrate_alerts/create?account_name= */
export const hashrateAlertCreateBody = z
  .object({
    algorithm: miningAlgorithm,
    kind: z.enum(['hashrate', 'workers'], { error: 'Choose what to watch: hashrate or workers' }),
    threshold_hashrate: optionalNumber('The threshold must be a hashrate in H/s'),
    threshold_percent: optionalNumber('The percentage must be a whole number from 10 to 95'),
    min_workers: optionalNumber('The fewest workers must be a whole number'),
    /** A worker group (trimmed; absent or empty: the whole account). */
    group: z
      .string({ error: 'The group must be text' })
      .optional()
      .transform((text, ctx) => {
        const group = text === undefined ? null : alertGroupOf(text);
        if (group === undefined) ctx.addIssue({ code: 'custom', message: ALERT_GROUP_TOO_LONG });
        return group ?? null;
      }),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (b.kind === 'hashrate') {
      if ((b.threshold_hashrate === undefined) === (b.threshold_percent === undefined)) {
        issue('threshold_hashrate', 'Give a hashrate or a percentage of the 24-hour average, not both');
      }
      if (b.threshold_hashrate !== undefined && !(b.threshold_hashrate > 0)) {
        issue('threshold_hashrate', 'The threshold must be a hashrate in H/s');
      }
      const percent = b.threshold_percent;
      if (percent !== undefined && (!Number.isInteger(percent) || percent < 10 || percent > 95)) {
        issue('threshold_percent', 'The percentage must be a whole number from 10 to 95');
      }
      if (b.min_workers !== undefined) issue('min_workers', 'A hashrate alert takes no worker count');
    } else {
      const fewest = b.min_workers;
      if (fewest === undefined || !Number.isInteger(fewest) || fewest < 1 || fewest > 1_000_000) {
        issue('min_workers', 'The fewest workers must be a whole number from 1 to 1,000,000');
      }
      if (b.threshold_hashrate !== undefined || b.threshold_percent !== undefined) {
        issue('threshold_hashrate', 'A workers alert takes no hashrate');
      }
    }
  });
export const hashrateAlertCreateResponse = z.object({ result: z.literal(true), alert: hashrateAlert });

/** POST /v1/user/hashrate_alerts/delete?account_name= */
export const hashrateAlertDeleteBody = z.object({
  id: z.string({ error: 'Alert is required' }).regex(/^[1-9]\d{0,18}$/, 'Alert not found'),
});
