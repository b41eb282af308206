import type { Database } from '@lodestone/db';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ShareBus } from '../bus/types.js';
import type { Config } from '../config/config.js';
import type { ProcessHealth } from '../health.js';

/**
 * Something started that must be stopped, in reverse order of starting. A role pushes each part onto
 * the process's list as soon as it runs, so a role that fails half-way is stopped as far as it got.
 */
export interface Running {
  name: string;
  stop(): Promise<unknown>;
}

/** What every role of a process starts on: main.ts opens these once, each role adds its own parts. */
export interface ProcessParts {
  config: Config;
  database: Database;
  bus: ShareBus;
  log: Logger;
  registry: Registry;
  health: ProcessHealth;
  /** This process's PostgreSQL application_name, unique per start (the jobs lease names its holder by it). */
  sessionName: string;
}
