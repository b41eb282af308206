import type { AlgorithmStatsResponse, NetworkFigures, SiteResponse } from '@lodestone/contract';

/** Litecoin's network as the pool answers it, for the stats and Blocks pages' tests. */
export const LTC_NETWORK: NetworkFigures = {
  coin: 'LTC',
  height: 2_800_123,
  difficulty: 28_123_456.789,
  hashrate: 1.23456,
  hashrate_units: 'Ph/s',
  reward: '6.2512345678',
  observed_at: '2026-05-06T11:59:00.000Z',
};

/** A SCRYPT stats answer (GET /v1/pool/stats/{algorithm}) with the given fields replaced. */
export function buildAlgorithmStats(over: Partial<AlgorithmStatsResponse> = {}): AlgorithmStatsResponse {
  return {
    hashrate: 2.5,
    hashrate_units: 'Th/s',
    miners: 42,
    workers: 80,
    users: 1234,
    blocks: 17,
    hashes: 987.654,
    hashes_units: 'PH',
    profit: 0.000123456,
    profit_avg: 0.00011,
    profit_speed: 0.000123456,
    profit_units: 'BTC/TH/s',
    top_hashrate: [],
    top_hashrate_units: 'Gh/s',
    top_hashers_past: [],
    top_hashers_past_units: 'TH',
    networks: [],
    ...over,
  };
}

/** The site's answer (GET /v1/site) of a pool at pool.example.org with no contacts shown, the given fields replaced. */
export function buildSite(over: Partial<SiteResponse> = {}): SiteResponse {
  return {
    pool_name: 'Pool',
    support_email: '',
    phone_eu: '',
    phone_us: '',
    chat_handle: '',
    stratum_host: 'pool.example.org',
    fee_percent: 1,
    solo_fee_percent: 1,
    demo: false,
    demo_valuation: null,
    links: { blog: null, status: null, ios_app: null, android_app: null, socials: [] },
    ...over,
  };
}
