import { API_PREFIX, paths } from '@lodestone/contract';

/**
 * The three endpoints the API docs describe (GET api/pool, api/profits, api/user: docs/public-api.md, The public API).
 * Only the route, the path in the OpenAPI document and a sentence of purpose live here; parameters,
 * fields and examples are read from the document itself.
 */
export interface EndpointDoc {
  /** The docs page: "endpoints/get-pool-data". */
  route: string;
  title: string;
  /** The path in GET /v1/openapi.json. */
  path: string;
  summary: string;
  /** Needs the account's API key. */
  private: boolean;
}

export const ENDPOINTS: readonly EndpointDoc[] = [
  {
    route: 'endpoints/get-pool-data',
    title: 'Get Pool Data',
    path: `${API_PREFIX}${paths.apiPool.path}`,
    summary:
      "The pool on every algorithm: hashrate, miners, blocks, the fee and the pay rates (current, 24-hour average and the high-speed port's), with the coin prices the pool uses.",
    private: false,
  },
  {
    route: 'endpoints/get-pools-profits',
    title: 'Get Pools Profits',
    path: `${API_PREFIX}${paths.apiProfits.path}`,
    summary:
      "Per algorithm, the pool's mean profitability over 24 hours, 7 days and 30 days, and the comparison with other pools shown on the Profitability page. Each comparison row is [pool name, URL, profitability, unit, percent difference from this pool].",
    private: false,
  },
  {
    route: 'endpoints/get-user-data',
    title: 'Get User Data',
    path: `${API_PREFIX}${paths.apiUser.path}`,
    summary:
      "One account's data, read-only, by its API key: hashrate and workers per algorithm, balances, the newest payments and the daily earnings.",
    private: true,
  },
];
