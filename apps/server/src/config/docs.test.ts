import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderConfigurationDocs } from './docs.js';
import { SETTINGS } from './settings.js';

describe('docs/configuration.md', () => {
  const docs = readFileSync(fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url)), 'utf8');

  it('is up to date with the settings table (run `npm run docs:config` after changing settings)', () => {
    expect(docs).toBe(renderConfigurationDocs());
  });

  it('lists every setting by environment variable and file key', () => {
    for (const setting of Object.values(SETTINGS)) {
      expect(docs).toContain(`\`${setting.env}\``);
      expect(docs).toContain(`\`${setting.file}\``);
    }
    expect(docs).toContain('LODESTONE_CONFIG');
  });
});

describe('docs/deployment.md', () => {
  const docs = readFileSync(fileURLToPath(new URL('../../../../docs/deployment.md', import.meta.url)), 'utf8');
  /** Upper-case names it writes that are not Lodestone settings, each for its reason. */
  const NOT_SETTINGS = new Set([
    'HEALTHCHECK', // the Dockerfile instruction
    'LOCAL', // the PROXY protocol v2 command of a balancer's own health checks
    'LODESTONE_CONFIG', // the configuration file's path (configuration.md), not a setting of the table
    'NODE_OPTIONS', // Node's own
    'SITE_ADDRESS', // the Caddyfile's site address in compose.yaml
  ]);

  it('names only settings that exist, by the environment variable configuration.md gives them', () => {
    const envs = new Set(Object.values(SETTINGS).map((s) => s.env));
    const named = [...docs.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((name) => !envs.has(name) && !NOT_SETTINGS.has(name))).toEqual([]);
  });
});
