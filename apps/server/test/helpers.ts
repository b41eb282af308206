import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, DatabaseEngine } from '@lodestone/db';
import { createTestDatabase } from '@lodestone/db/testing';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.js';
import { parseConfig } from '../src/config/config.js';
import { describeStratum } from '../src/services/stratumInfo.js';

/** A small built "website" so static serving is tested without depending on `vite build`. */
export function fakeWebDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lodestone-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Lodestone</title><div id="root"></div>');
  writeFileSync(path.join(dir, 'assets', 'index-3f2a1b.js'), 'console.log("app")');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  writeFileSync(
    path.join(dir, 'manifest.webmanifest'),
    JSON.stringify({ id: '/dashboard', name: 'Pool', start_url: '/dashboard', scope: '/', display: 'standalone' }),
  );
  return dir;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/** The real app on a real (migrated) database; `env` is read as configuration like in production. */
export async function createTestApp(
  env: Record<string, string> = {},
  extend?: (app: FastifyInstance) => void,
  engine?: DatabaseEngine,
  options: Partial<Pick<AppOptions, 'mailer' | 'now' | 'network'>> = {},
): Promise<TestApp> {
  const database = await createTestDatabase(engine ? { engine } : {});
  // Files the app writes (the e-mail outbox) go to a folder of the test's own; the robot check's
  // proof of work is made small so tests solve it in milliseconds (a setting, not a bypass).
  const config = parseConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-data-')),
    CAPTCHA_MAX_NUMBER: '1000',
    ...env,
  });
  const app = await buildApp({
    config,
    database,
    network: { demo: false },
    stratum: () => describeStratum(config),
    logger: false,
    webDir: fakeWebDir(),
    ...options,
  });
  extend?.(app);
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
