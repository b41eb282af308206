import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBundle, freePort, type Run, run, START_UP_MS, waitForHealth } from '../test/process.js';

// The deployment's monitoring (deploy/: the Grafana dashboard and the Prometheus alert rules) names
// metrics by hand. This runs the real bundle and checks that every lodestone_* metric they name is
// one the program registers, from the start: a dashboard panel or an alert on a misspelt or removed
// metric shows nothing and never fires, and nothing else would say so. Names from other exporters
// (jetstream_*, from the NATS exporter) and Prometheus's own `up` are not the program's to check.

const deployDir = fileURLToPath(new URL('../../../deploy/', import.meta.url));

/** Every lodestone_* metric name in a PromQL expression. */
function metricNames(expr: string): string[] {
  return expr.match(/\blodestone_[A-Za-z0-9_:]+/g) ?? [];
}

/**
 * The queries of a Grafana dashboard: every `expr` of a panel's targets (rows' nested panels
 * included) and every query variable's `query`.
 */
function dashboardQueries(dashboard: unknown): string[] {
  const queries: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'expr' && typeof value === 'string') queries.push(value);
        else walk(value);
      }
    }
  };
  walk((dashboard as { panels: unknown }).panels);
  for (const variable of (dashboard as { templating: { list: { query: unknown }[] } }).templating.list) {
    const { query } = variable;
    if (typeof query === 'string') queries.push(query);
    else if (query !== null && typeof query === 'object' && 'query' in query) queries.push(String(query.query));
  }
  return queries;
}

/**
 * The `expr:` values of a Prometheus rules file, without a YAML parser: a plain or quoted scalar on
 * the key's line, or a block scalar (`|`, `>`, with chomping) whose lines are indented deeper than the
 * key. The caller checks that there is one per rule, so a form this does not read cannot pass unseen.
 */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const exprs: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*)(?:- )?expr:\s*(.*)$/.exec(lines[i] ?? '');
    if (!match) continue;
    const indent = (match[1] ?? '').length;
    const value = (match[2] ?? '').trim();
    if (/^[|>][+-]?$/.test(value)) {
      const block: string[] = [];
      while (i + 1 < lines.length) {
        const next = lines[i + 1] ?? '';
        if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
        block.push(next.trim());
        i++;
      }
      exprs.push(block.join(' ').trim());
    } else if (/^(['"]).*\1$/.test(value)) exprs.push(value.slice(1, -1));
    else exprs.push(value);
  }
  return exprs;
}

/** The metrics a /metrics page registers (its `# TYPE` lines), histograms and summaries with their series' suffixes. */
function registeredMetrics(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const match = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (!match) continue;
    const [, name = '', type] = match;
    names.add(name);
    const suffixes =
      type === 'histogram' ? ['_bucket', '_sum', '_count'] : type === 'summary' ? ['_sum', '_count'] : [];
    for (const suffix of suffixes) names.add(`${name}${suffix}`);
  }
  return names;
}

const dashboard: unknown = JSON.parse(readFileSync(path.join(deployDir, 'grafana/dashboards/lodestone.json'), 'utf8'));
const rulesFile = readFileSync(path.join(deployDir, 'prometheus/alerts.yml'), 'utf8');

describe('the deployment monitoring (deploy/)', () => {
  let r: Run | undefined;
  let port = 0;

  beforeAll(async () => {
    // The process under test is the real bundle that `npm start` and the container image run.
    buildBundle();
    port = await freePort();
    r = run({
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lodestone-deploy-')),
      // All three roles in one process, so every role's metrics are in one registry.
      STRATUM_LISTENERS: JSON.stringify([
        { algorithm: 'sha256', port: 0, host: '127.0.0.1' },
        { algorithm: 'scrypt', port: 0, host: '127.0.0.1' },
      ]),
      DEMO_WORKERS: '2',
    });
    await waitForHealth(port, r);
  }, START_UP_MS + 30_000);

  afterAll(async () => {
    if (!r) return;
    r.child.kill('SIGTERM');
    await r.exit;
  });

  const metricsPage = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

  it('reads one expression per alert rule, and lodestone metrics in the rules and the dashboard', () => {
    const rules = rulesFile.match(/^\s*- alert:/gm) ?? [];
    const exprs = ruleExpressions(rulesFile);
    expect(rules.length).toBeGreaterThan(10);
    expect(exprs).toHaveLength(rules.length);
    expect(exprs.every((e) => e.length > 0)).toBe(true);
    expect(new Set(exprs.flatMap(metricNames)).size).toBeGreaterThan(10);
    expect(new Set(dashboardQueries(dashboard).flatMap(metricNames)).size).toBeGreaterThan(15);
  });

  it('every lodestone metric the dashboard and the alert rules name is registered from the start', async () => {
    // Read as soon as the process is ready: metrics of events that have not happened yet (blocks,
    // refusals, journal errors) and of figures not read yet (the treasury) must be there already.
    const registered = registeredMetrics(await metricsPage());
    expect(registered.size).toBeGreaterThan(20);
    const missing = (queries: string[]) => [...new Set(queries.flatMap(metricNames))].filter((n) => !registered.has(n));
    expect(missing(dashboardQueries(dashboard)), 'dashboard: metrics the server does not register').toEqual([]);
    expect(missing(ruleExpressions(rulesFile)), 'alerts.yml: metrics the server does not register').toEqual([]);
  });

  it('the labels the panels and rules group by are on the series once shares flow', { timeout: 60_000 }, async () => {
    // The demo fleet submits real shares within seconds.
    let page = '';
    await vi.waitFor(
      async () => {
        page = await metricsPage();
        expect(page).toMatch(/^lodestone_stratum_shares_total\{[^}]*outcome="valid"/m);
      },
      { timeout: 45_000, interval: 1000 },
    );
    const share = page.match(/^lodestone_stratum_shares_total\{([^}]*)\}/m)?.[1] ?? '';
    expect(share, page.slice(0, 2000)).toMatch(/algorithm="(sha256|scrypt)"/);
    expect(share).toContain('outcome="valid"');
    expect(share).toContain('reason=""');
    expect(page).toMatch(/^lodestone_stratum_sessions\{algorithm="\w+",kind="standard"\} [1-9]/m);
    for (const component of ['database', 'bus', 'jobs_active']) {
      expect(page).toContain(`lodestone_up{component="${component}"} 1`);
    }
    expect(page).toMatch(/^lodestone_http_request_duration_seconds_bucket\{[^}]*route="[^"]+"[^}]*status="\d+"/m);
  });
});
