/**
 * The Kaspa miners the stratum port tells apart by the agent string of mining.subscribe (params[0]),
 * and what each is sent. From kaspanet/rusty-kaspa bridge/src/default_client.rs (`handle_subscribe`,
 * `send_extranonce`) and client_handler.rs (job formats) @593399e:
 *
 * - IceRiver (KS0–KS5; agent matching iceriver|icemining|icm, any case): subscribe `[true,
 *   "EthereumStratum/1.0.0"]`, the "big job" (one 80-hex string), and mining.set_extranonce and
 *   mining.notify as bare `{"method", "params"}` objects (the bridge: "IceRiver expects minimal
 *   notification format"). Power-of-two difficulties; its firmware may name a later job than the
 *   one a share was found for.
 * - Bitmain (Antminer KS3/KS5, "GodMiner/…"; godminer|bitmain|antminer): subscribe `[null,
 *   extranonce, 8 − len]`, the legacy job (four u64 words and the timestamp as JSON integers),
 *   set_extranonce `[extranonce, 8 − len]`. Power-of-two difficulties and the same job-id slip.
 * - BzMiner: the big job, otherwise standard.
 * - Everyone else (Goldshell, lolMiner, SRBMiner, iBeLink…): subscribe `[true,
 *   "EthereumStratum/1.0.0"]` and the legacy job.
 *
 * The bridge gives Bitmain an empty extranonce (the whole nonce is the miner's). Lodestone gives every
 * class a 2-byte extranonce, in the form the bridge itself writes for Bitmain when one is set, so
 * that no two sessions can mine the same nonces; every submitted nonce must start with it.
 */
export type KaspaMinerClass = 'iceriver' | 'bitmain' | 'bzminer' | 'other';

export interface KaspaMinerProfile {
  readonly class: KaspaMinerClass;
  /** Jobs as `[jobId, "<pre_pow_hash hex><timestamp u64 LE hex>"]` rather than the legacy form. */
  readonly bigJob: boolean;
  /** ASIC firmware: power-of-two difficulties, and a low share is tried against earlier jobs. */
  readonly asic: boolean;
  /** set_extranonce and notify without an `id` member. */
  readonly bareNotifications: boolean;
}

const PROFILES: Record<KaspaMinerClass, KaspaMinerProfile> = {
  iceriver: { class: 'iceriver', bigJob: true, asic: true, bareNotifications: true },
  bitmain: { class: 'bitmain', bigJob: false, asic: true, bareNotifications: false },
  bzminer: { class: 'bzminer', bigJob: true, asic: false, bareNotifications: false },
  other: { class: 'other', bigJob: false, asic: false, bareNotifications: false },
};

const ICERIVER = /iceriver|icemining|icm/i;
const BITMAIN = /godminer|bitmain|antminer/i;
const BZMINER = /bzminer/i;

/** The class of a miner from its subscribe agent (IceRiver first, as the bridge picks the job form). */
export function classifyKaspaMiner(agent: unknown): KaspaMinerProfile {
  if (typeof agent !== 'string') return PROFILES.other;
  if (ICERIVER.test(agent)) return PROFILES.iceriver;
  if (BITMAIN.test(agent)) return PROFILES.bitmain;
  if (BZMINER.test(agent)) return PROFILES.bzminer;
  return PROFILES.other;
}
