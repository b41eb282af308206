import type { HealthResponse } from '@lodestone/contract';
import type { Database } from '@lodestone/db';
import { Gauge, type Registry } from 'prom-client';
import type { JobsRoleState } from './jobs/role.js';
import type { Role } from './roles/parseRoles.js';
import { VERSION } from './version.js';

/** What a process's health is read from; parts appear as they start (the database may still be coming). */
export interface HealthSources {
  roles: ReadonlySet<Role>;
  database?: Pick<Database, 'ping'>;
  bus?: { connected(): boolean };
  jobs?: { state(): JobsRoleState };
}

/**
 * The process's health, one answer for `/v1/health` (readiness) and the `lodestone_up` metric, in
 * every role (docs/deployment.md, "Health and metrics"). Ready means able to do its roles' work:
 * every role needs the database (the API answers from it, stratum logs miners in against it, jobs
 * write to it); the jobs role also needs the bus. A stratum node stays ready through a bus outage —
 * it answers miners and keeps their shares in its journal — and says the bus is down.
 */
export class ProcessHealth {
  readonly #startedAt = performance.now();

  constructor(readonly sources: HealthSources) {}

  async report(): Promise<HealthResponse> {
    const { roles, database, bus, jobs } = this.sources;
    const databaseUp = database ? await database.ping() : false;
    const busUp = bus?.connected() ?? false;
    const ready = databaseUp && (busUp || !roles.has('jobs'));
    return {
      status: ready ? 'ok' : 'unavailable',
      database: databaseUp ? 'up' : 'down',
      // A process of the api role alone has no use for the bus, but still reports it.
      ...(bus ? { bus: busUp ? ('up' as const) : ('down' as const) } : {}),
      ...(jobs ? { jobs: jobs.state() } : {}),
      roles: [...roles],
      version: VERSION,
      uptime_seconds: Math.round((performance.now() - this.#startedAt) / 1000),
    };
  }

  /** `lodestone_up{component}`: 1 or 0 for the database and the bus, read at each scrape. */
  register(registry: Registry): void {
    const health = this;
    new Gauge({
      name: 'lodestone_up',
      help: 'Whether this process reaches a component it depends on: 1 up, 0 down (component: database, bus, jobs_active).',
      labelNames: ['component'] as const,
      registers: [registry],
      async collect() {
        const report = await health.report();
        this.set({ component: 'database' }, report.database === 'up' ? 1 : 0);
        if (report.bus !== undefined) this.set({ component: 'bus' }, report.bus === 'up' ? 1 : 0);
        if (report.jobs !== undefined) this.set({ component: 'jobs_active' }, report.jobs === 'active' ? 1 : 0);
      },
    });
  }
}
