import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { LANES, mergeReports, splitJsonOutput } from './lanes.mjs';

describe('the test lanes', () => {
  it('hold every project of vitest.config.ts exactly once', () => {
    const projects = (config.test?.projects ?? []).map((p) =>
      typeof p === 'object' && 'test' in p ? p.test?.name : p,
    );
    const laned = LANES.flatMap((l) => l.projects);
    expect(new Set(laned).size).toBe(laned.length);
    expect([...laned].sort()).toEqual([...projects].sort());
  });

  it('take the JSON report file out of the arguments in either form', () => {
    expect(splitJsonOutput(['--reporter=json', '--outputFile.json=out.json', 'a.test.ts'])).toEqual({
      rest: ['--reporter=json', 'a.test.ts'],
      jsonFile: 'out.json',
    });
    expect(splitJsonOutput(['--outputFile.json', 'x.json'])).toEqual({ rest: [], jsonFile: 'x.json' });
    expect(splitJsonOutput(['--bail=1'])).toEqual({ rest: ['--bail=1'], jsonFile: undefined });
  });

  it('merge the lanes’ reports: counts summed, files together, success only when every one succeeded', () => {
    const a = {
      numTotalTests: 3,
      numPassedTests: 3,
      numFailedTests: 0,
      numTotalTestSuites: 2,
      startTime: 2000,
      success: true,
      snapshot: { added: 1, failure: false, filesAdded: 0 },
      testResults: [{ name: 'a' }],
    };
    const b = {
      ...a,
      numPassedTests: 1,
      numFailedTests: 2,
      startTime: 1000,
      success: false,
      testResults: [{ name: 'b' }],
    };
    expect(mergeReports([a, b])).toEqual({
      numTotalTests: 6,
      numPassedTests: 4,
      numFailedTests: 2,
      numTotalTestSuites: 4,
      startTime: 1000,
      success: false,
      snapshot: { added: 2, failure: false, filesAdded: 0 },
      testResults: [{ name: 'a' }, { name: 'b' }],
    });
    expect(mergeReports([a, a]).success).toBe(true);
  });

  it('count a lane that left no report as a failed suite', () => {
    const merged = mergeReports([
      { numPassedTests: 5, numTotalTestSuites: 1, success: true, testResults: [] },
      undefined,
    ]);
    expect(merged).toMatchObject({ numPassedTests: 5, numTotalTestSuites: 2, numFailedTestSuites: 1, success: false });
  });

  it('refuse an output file every lane would overwrite, before running anything', () => {
    const script = fileURLToPath(new URL('./lanes.mjs', import.meta.url));
    for (const arg of ['--outputFile=report.xml', '--outputFile.junit=junit.xml']) {
      const run = spawnSync(process.execPath, [script, arg], { encoding: 'utf8' });
      expect(run.status, arg).toBe(2);
      expect(run.stderr).toContain('use --outputFile.json=FILE, or name --project');
    }
  });
});
