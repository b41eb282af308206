import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ProcessHealth } from './health.js';
import type { Role } from './roles/parseRoles.js';

const database = (up: boolean) => ({ ping: async () => up });
const bus = (up: boolean) => ({ connected: () => up });

describe('a process’s health', () => {
  it.each<[string, Role[], boolean, boolean, 'ok' | 'unavailable']>([
    ['every role, all reachable', ['api', 'stratum', 'jobs'], true, true, 'ok'],
    ['the jobs role without its bus', ['jobs'], true, false, 'unavailable'],
    ['a stratum node through a bus outage (it journals the shares)', ['stratum'], true, false, 'ok'],
    ['the API alone through a bus outage', ['api'], true, false, 'ok'],
    ['any role without its database', ['stratum'], false, true, 'unavailable'],
  ])('%s: %s', async (_what, roles, databaseUp, busUp, status) => {
    const health = new ProcessHealth({ roles: new Set(roles), database: database(databaseUp), bus: bus(busUp) });
    expect(await health.report()).toMatchObject({
      status,
      database: databaseUp ? 'up' : 'down',
      bus: busUp ? 'up' : 'down',
      roles,
    });
  });

  it('is unavailable until its database is open, and names the jobs role’s state', async () => {
    const health = new ProcessHealth({ roles: new Set<Role>(['jobs']) });
    expect(await health.report()).toMatchObject({ status: 'unavailable', database: 'down' });
    health.sources.database = database(true);
    health.sources.bus = bus(true);
    health.sources.jobs = { state: () => 'standby' };
    expect(await health.report()).toMatchObject({ status: 'ok', jobs: 'standby' });
  });

  it('exports lodestone_up per component at each scrape', async () => {
    const registry = new Registry();
    const sources = {
      roles: new Set<Role>(['jobs']),
      database: database(true),
      bus: bus(false),
      jobs: { state: () => 'active' as const },
    };
    new ProcessHealth(sources).register(registry);
    const text = await registry.metrics();
    expect(text).toContain('lodestone_up{component="database"} 1');
    expect(text).toContain('lodestone_up{component="bus"} 0');
    expect(text).toContain('lodestone_up{component="jobs_active"} 1');
  });
});
