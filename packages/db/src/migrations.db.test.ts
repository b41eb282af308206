import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrationFileName } from './migrations.js';

const folder = new URL('../migrations/', import.meta.url);

describe('MIGRATIONS', () => {
  it('lists exactly the files in migrations/, in order', () => {
    const files = readdirSync(folder).sort();
    expect(MIGRATIONS.map(migrationFileName)).toEqual(files);
  });

  it('names every file NNNN_name.sql with strictly increasing versions', () => {
    for (const file of readdirSync(folder)) expect(file).toMatch(/^\d{4}_[a-z0-9_]+\.sql$/);
    const versions = MIGRATIONS.map((m) => m.version);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1] ?? 0);
  });

  it('embeds each file exactly as it is on disk (the checksum is of the file)', () => {
    for (const m of MIGRATIONS) {
      expect(m.sql).toBe(readFileSync(new URL(migrationFileName(m), folder), 'utf8'));
    }
  });
});
