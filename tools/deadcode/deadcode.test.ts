import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run check:dead` runs knip over the repository with knip.jsonc. Here knip runs over fixture/, a
// small package with the same reporting choice (ignoreExportsUsedInFile): one dead export, one dead
// file, and the two kinds of export that are not dead (used in its own file, used by a test).

const knip = fileURLToPath(new URL('../../node_modules/knip/bin/knip.js', import.meta.url));
const fixture = fileURLToPath(new URL('fixture', import.meta.url));

describe('dead-code check', () => {
  const run = spawnSync(process.execPath, [knip, '--no-progress', '--no-config-hints'], {
    cwd: fixture,
    encoding: 'utf8',
  });

  it('fails (non-zero exit) on a dead export and a dead file, naming both', () => {
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/Unused files \(1\)\s+src\/orphan\.ts/);
    expect(run.stdout).toMatch(/Unused exports \(1\)\s+neverCalled\s+function\s+src\/lib\.ts/);
  });

  it('keeps exports used in their own file or by a test', () => {
    expect(run.stdout).not.toContain('helper');
    expect(run.stdout).not.toContain('TESTED');
  });
});
