import { z } from 'zod';
import { algorithmKey } from './common.js';

/** GET /v1/pool/stratum — every stratum port miners can use, as the Getting Started page shows them. */
export const stratumListenerInfo = z.object({
  algorithm: algorithmKey,
  host: z.string(),
  port: z.number().int(),
  kind: z.enum(['standard', 'marketplace', 'xnsub', 'solo']),
  tls: z.boolean(),
  /** `stratum+tcp://host:port` or `stratum+ssl://host:port`. */
  url: z.string(),
  /** Difficulty a new session starts at, and the bounds variable difficulty stays within. */
  start_difficulty: z.number().positive(),
  min_difficulty: z.number().positive(),
  max_difficulty: z.number().positive(),
  /** True when this algorithm's work comes from the built-in demo network rather than a coin daemon. */
  demo: z.boolean(),
});
export type StratumListenerInfo = z.infer<typeof stratumListenerInfo>;

export const stratumResponse = z.object({ listeners: z.array(stratumListenerInfo) });
export type StratumResponse = z.infer<typeof stratumResponse>;
