import { z } from 'zod';

/** GET /v1/banner — the home page's banner bar. `text` is markup; the website sanitizes it. */
export const bannerResponse = z.object({
  visible: z.boolean(),
  text: z.string(),
});
export type BannerResponse = z.infer<typeof bannerResponse>;

const link = z.object({ label: z.string(), url: z.string() });

/**
 * GET /v1/site — what the operator configured about the pool that the website shows: branding, contacts, external
 * links. The original site hard-coded these; ours come from the configuration (docs/configuration.md).
 */
export const siteResponse = z.object({
  pool_name: z.string(),
  /**
   * Contacts. null: not configured — the setting (SUPPORT_EMAIL, PHONE_EU, PHONE_US, CHAT_HANDLE) is
   * still at its built-in placeholder, and the website says so instead of showing a made-up address;
   * '' : the operator chose to show none.
   */
  support_email: z.string().nullable(),
  phone_eu: z.string().nullable(),
  phone_us: z.string().nullable(),
  chat_handle: z.string().nullable(),
  stratum_host: z.string(),
  fee_percent: z.number(),
  /** The solo fee: the percent of a solo worker's block the pool keeps (docs/solo.md). */
  solo_fee_percent: z.number(),
  /** True while the pool runs the built-in demo network instead of real coin daemons. */
  demo: z.boolean(),
  /**
   * On the demo network, what its shares are valued at (DEMO_VALUATION): `reference`, a real coin's
   * network difficulty (profits of a real pool's order), or `chain`, the demo chain's own easy
   * difficulty (balances and payouts within minutes, absurd profit figures). Null off the demo network.
   */
  demo_valuation: z.enum(['reference', 'chain']).nullable(),
  links: z.object({
    blog: z.string().nullable(),
    status: z.string().nullable(),
    ios_app: z.string().nullable(),
    android_app: z.string().nullable(),
    socials: z.array(link),
  }),
});
export type SiteResponse = z.infer<typeof siteResponse>;

/** GET /v1/health */
export const healthResponse = z.object({
  /** Ready to do its roles' work (503 otherwise). */
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['up', 'down']),
  /** The share bus between processes (NATS); an in-process bus is up until shutdown. */
  bus: z.enum(['up', 'down']).optional(),
  /** A process running the jobs role: doing the work, or standing by for the one that holds the lease. */
  jobs: z.enum(['active', 'standby', 'stopped']).optional(),
  roles: z.array(z.enum(['api', 'stratum', 'jobs'])),
  version: z.string(),
  uptime_seconds: z.number().nonnegative(),
});
export type HealthResponse = z.infer<typeof healthResponse>;
