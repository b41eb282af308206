import type { StratumListenerInfo } from '@lodestone/contract';
import type { Database } from '@lodestone/db';
import type { Config } from '../config/config.js';
import type { NetworkInfo } from '../services/site.js';

/** What the API plugins may use; each plugin takes only what it reads from here. */
export interface ApiDeps {
  config: Config;
  database: Database;
  network: NetworkInfo;
  /** The stratum ports miners can use (from configuration, with the bound ports when stratum runs here). */
  stratum: () => StratumListenerInfo[];
}
