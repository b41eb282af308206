import type { BannerResponse, SiteResponse } from '@lodestone/contract';
import type { Config } from '../config/config.js';
import { SETTINGS } from '../config/settings.js';

/** The contact settings the website shows, by the Config key, and the setting that changes each. */
const CONTACTS = {
  supportEmail: SETTINGS.supportEmail,
  phoneEu: SETTINGS.phoneEu,
  phoneUs: SETTINGS.phoneUs,
  chatHandle: SETTINGS.chatHandle,
} as const;
type ContactKey = keyof typeof CONTACTS;

/**
 * The contact settings still at their built-in placeholder (`support@example.com`,
 * `+00 000 000 000`, …), by environment name: the operator has not configured them. The website shows
 * "not configured" in their place rather than a made-up address, and start-up warns about them.
 */
export function placeholderContacts(config: Config): string[] {
  return (Object.keys(CONTACTS) as ContactKey[])
    .filter((key) => config[key].trim() === CONTACTS[key].default)
    .map((key) => CONTACTS[key].env);
}

/** A contact as the website gets it: null while it is the placeholder, '' when the operator hid it. */
function contact(config: Config, key: ContactKey): string | null {
  return config[key].trim() === CONTACTS[key].default ? null : config[key];
}

export interface NetworkInfo {
  /** True when the built-in demo network produces the pool's work instead of coin daemons. */
  demo: boolean;
}

export function siteInfo(config: Config, network: NetworkInfo): SiteResponse {
  return {
    pool_name: config.poolName,
    support_email: contact(config, 'supportEmail'),
    phone_eu: contact(config, 'phoneEu'),
    phone_us: contact(config, 'phoneUs'),
    chat_handle: contact(config, 'chatHandle'),
    stratum_host: config.stratumHost,
    fee_percent: config.feePercent,
    solo_fee_percent: config.soloFeePercent,
    demo: network.demo,
    demo_valuation: network.demo ? config.demoValuation : null,
    links: {
      blog: config.blogUrl ?? null,
      status: config.statusUrl ?? null,
      ios_app: config.iosAppUrl ?? null,
      android_app: config.androidAppUrl ?? null,
      socials: config.socials,
    },
  };
}

export function banner(config: Config): BannerResponse {
  const text = config.bannerText.trim();
  return { visible: text.length > 0, text };
}
