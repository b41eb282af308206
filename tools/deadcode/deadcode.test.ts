import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run check:dead` runs knip over the repository with knip.jsonc. Here knip runs over fixture/, a
// small package with the same reporting choices (ignoreExportsUsedInFile, includeEntryExports): one
// dead export, one dead file, one re-export in the package's index that nothing imports, and the two
// kinds of export that are not dead (used in its own file, used by a test).

const knip = fileURLToPath(new URL('../../node_modules/knip/bin/knip.js', import.meta.url));
const fixture = fileURLToPath(new URL('fixture', import.meta.url));

/** knip.jsonc without its comments (none of its strings hold `//`). */
function readJsonc(url: URL): Record<string, unknown> {
  return JSON.parse(readFileSync(url, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
}

describe('dead-code check', () => {
  const run = spawnSync(process.execPath, [knip, '--no-progress', '--no-config-hints'], {
    cwd: fixture,
    encoding: 'utf8',
  });

  it('fails (non-zero exit) on a dead export and a dead file, naming both', () => {
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/Unused files \(1\)\s+src\/orphan\.ts/);
    expect(run.stdout).toMatch(/\bneverCalled\s+function\s+src\/lib\.ts/);
  });

  it("fails on a re-export in the package's index that nothing imports", () => {
    expect(run.stdout).toMatch(/Unused exports \(2\)/);
    expect(run.stdout).toMatch(/\bpublicHelper\s+src\/index\.ts/);
  });

  it('keeps exports used in their own file or by a test', () => {
    expect(run.stdout).not.toMatch(/\bhelper\b/);
    expect(run.stdout).not.toContain('TESTED');
  });

  it('judges the fixture by the reporting choices of knip.jsonc', () => {
    const repo = readJsonc(new URL('../../knip.jsonc', import.meta.url));
    const local = readJsonc(new URL('fixture/knip.json', import.meta.url));
    for (const option of ['ignoreExportsUsedInFile', 'includeEntryExports']) expect(local[option]).toBe(repo[option]);
  });
});
