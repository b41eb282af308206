import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every `bench:*` script of package.json in its short form: it runs to the end and prints its figures
 * with the ratio against the baseline it measures in the same run. Benchmarks are not timed tests,
 * so nothing here judges a figure; this proves they work, as CI must, and in `npm test`'s browser lane,
 * which ends minutes before the others, instead of one after another once every lane has finished.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;

/**
 * The server benchmarks rebuild the server first. `npm test` has just built it, and rebuilding its
 * bundle now would rewrite the files the pool processes of the other lanes are running.
 */
const SERVER_BUILD = 'npm run build --workspace=@lodestone/server && ';

/** The script's command without the server build, with `--short`. */
export function shortCommand(script: string): string {
  const command = script.startsWith(SERVER_BUILD) ? script.slice(SERVER_BUILD.length) : script;
  if (command.includes('npm run build')) throw new Error(`a benchmark that builds more than the server: ${script}`);
  return `${command} --short`;
}

/**
 * The environment the script would get from a shell: without what Vitest sets for its own tests
 * (NODE_ENV=test would make bench:web's vite build React's development bundle, half as large again).
 */
function shellEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')),
  );
}

function run(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: root, env: shellEnvironment() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const benchmarks = Object.keys(scripts).filter((name) => name.startsWith('bench:'));

describe('the benchmarks in their short form', () => {
  it('are found in package.json', () => {
    expect(benchmarks.sort()).toEqual([
      'bench:accounting',
      'bench:api',
      'bench:dashboard',
      'bench:pow',
      'bench:stratum',
      'bench:web',
    ]);
  });

  it('run a server benchmark from the bundle `npm test` built, and refuse one that builds anything else', () => {
    expect(shortCommand(`${SERVER_BUILD}node apps/server/dist/bench-api.js`)).toBe(
      'node apps/server/dist/bench-api.js --short',
    );
    expect(shortCommand('npm run bench --workspace=@lodestone/pow --')).toBe(
      'npm run bench --workspace=@lodestone/pow -- --short',
    );
    expect(() => shortCommand('npm run build && node x.js')).toThrow(/builds more than the server/);
  });

  it.each(benchmarks)('%s runs and prints its ratios to the baseline', async (name) => {
    const { code, output } = await run(shortCommand(String(scripts[name])));
    // The figures in the run's log, as CI printed them when it ran the scripts itself.
    process.stdout.write(`\n── npm run ${name} -- --short\n${output}`);
    expect(code, output).toBe(0);
    // Each writes its ratios its own way: "× baseline", "÷ raw hash rate", "ratio pool/stats ÷ bare".
    expect(output).toMatch(/[×÷]|ratio/);
  });
});
