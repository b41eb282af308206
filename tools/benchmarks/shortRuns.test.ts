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
 * bundle now would rewrite the files the pool processes of the other lanes are running. (Run alone,
 * `npx vitest run --project benchmarks` runs the bundle last built: `npm run build` first.)
 */
const SERVER_BUILD = 'npm run build --workspace=@lodestone/server && ';

/** The script's command without the server build, with `--short`. */
export function shortCommand(script: string): string {
  const command = script.startsWith(SERVER_BUILD) ? script.slice(SERVER_BUILD.length) : script;
  if (command.includes('npm run build')) throw new Error(`a benchmark that builds more than the server: ${script}`);
  return `${command} --short`;
}

/** What Vitest adds to the environment of its tests (with every VITEST_* variable). */
const VITEST_SETS = new Set(['NODE_ENV', 'TEST', 'MODE', 'DEV', 'PROD', 'SSR', 'BASE_URL']);

/**
 * The environment the script would get from a shell: without what Vitest sets for its own tests
 * (NODE_ENV=test would make bench:web's vite build React's development bundle, half as large again).
 */
function shellEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !VITEST_SETS.has(name) && !name.startsWith('VITEST')),
  );
}

/** A benchmark's short run takes a minute at most on an idle machine; a hung one is killed with its children. */
const RUN_LIMIT_MS = 240_000;

function run(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that a hung benchmark goes with the processes it started.
    const child = spawn('sh', ['-c', command], { cwd: root, env: shellEnvironment(), detached: true });
    let output = '';
    const timer = setTimeout(() => {
      output += `\n(killed after ${RUN_LIMIT_MS / 1000} s)\n`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, RUN_LIMIT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** How each benchmark prints its ratio to the baseline it measured in the same run. */
const RATIOS: Record<string, RegExp> = {
  'bench:accounting': /ratio credited \/ baseline: \d+\.\d+/,
  'bench:api': /ratio pool\/stats ÷ bare: throughput \d+\.\d+/,
  'bench:dashboard': /baseline: pool stats[^\n]* 1\.0×\n[^\n]* \d+\.\d×/,
  'bench:pow': /\(ours = \d+\.\d+ ×\)/,
  'bench:stratum': /throughput ÷ raw hash rate \d+\.\d+/,
  'bench:web': /\(home, baseline\)[^\n]* 1\.00×\n[^\n]* \d+\.\d+×/,
};

const benchmarks = Object.keys(scripts).filter((name) => name.startsWith('bench:'));

describe('the benchmarks in their short form', () => {
  it('are every bench:* script of package.json, each with the ratio it prints', () => {
    expect(benchmarks.sort()).toEqual(Object.keys(RATIOS).sort());
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
    expect(output).toMatch(RATIOS[name] ?? /a ratio named in RATIOS/);
  });
});
