import type { BannerResponse, SiteResponse } from '@lodestone/contract';
import type { Config } from '../config/config.js';

export interface NetworkInfo {
  /** True when the built-in demo network produces the pool's work instead of coin daemons. */
  demo: boolean;
}

export function siteInfo(config: Config, network: NetworkInfo): SiteResponse {
  return {
    pool_name: config.poolName,
    support_email: config.supportEmail,
    phone_eu: config.phoneEu,
    phone_us: config.phoneUs,
    chat_handle: config.chatHandle,
    stratum_host: config.stratumHost,
    fee_percent: config.feePercent,
    demo: network.demo,
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
