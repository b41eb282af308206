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
