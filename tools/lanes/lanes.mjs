#!/usr/bin/env node
/**
 * `npm test`'s runner: the suite in three lanes at once, each its own `vitest run`.
 *
 * Vitest runs the projects that forbid file parallelism (the browser, daemon, process and soak files,
 * one at a time because each runs a whole pool, a Chromium or two coin daemons) as one queue after
 * every parallel file has finished. On CI's two cores that queue was half of the run (13 of 26
 * minutes), and mostly waiting: on sockets, timers and a browser, with a core idle. Here it runs
 * beside the unit, integration and fault files instead, in two lanes (the browser files, and the files
 * that run pools or coin daemons), each still one file at a time.
 *
 * Arguments go to every lane. `--outputFile.json=FILE` gets one file per lane, merged into FILE at
 * the end (the counts summed, the files listed together), so callers read one report as before. With
 * `--project` the caller has chosen, and this runs one `vitest run` with the arguments as given.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every project of vitest.config.ts, in exactly one lane (lanes.test.ts checks it). */
export const LANES = [
  { name: 'parallel', projects: ['unit', 'integration', 'faults'] },
  // One Chromium at a time, beside one pool process (or a pair of coin daemons) at a time: in one lane
  // the two queues took 18 minutes of CI's 22 after the parallel files' 13.
  // The CPU miners' file too (half a minute of one core), and the benchmarks' short runs (three minutes
  // when CI ran them after every lane): this lane ends minutes before the others.
  { name: 'browser', projects: ['browser', 'cpu', 'benchmarks'] },
  { name: 'pools', projects: ['daemon', 'process', 'soak'] },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

/**
 * Splits `--outputFile.json=FILE` (or `--outputFile.json FILE`) out of the arguments.
 * @param {string[]} args
 * @returns {{ rest: string[], jsonFile: string | undefined }}
 */
export function splitJsonOutput(args) {
  /** @type {string[]} */
  const rest = [];
  /** @type {string | undefined} */
  let jsonFile;
  for (let i = 0; i < args.length; i++) {
    const arg = String(args[i]);
    if (arg.startsWith('--outputFile.json=')) jsonFile = arg.slice('--outputFile.json='.length);
    else if (arg === '--outputFile.json' && i + 1 < args.length) jsonFile = String(args[++i]);
    else rest.push(arg);
  }
  return { rest, jsonFile };
}

/**
 * One report of Vitest's JSON reporter from the lanes' reports: counts summed, files concatenated,
 * the earliest start, success only when every lane succeeded. A lane with no report (it crashed
 * before writing one) makes the whole unsuccessful and counts as one failed suite.
 * @param {(Record<string, unknown> | undefined)[]} reports
 * @returns {Record<string, unknown>}
 */
export function mergeReports(reports) {
  /** @type {Record<string, unknown>} */
  const merged = { testResults: [], success: true };
  for (const report of reports) {
    if (report === undefined) {
      merged.success = false;
      merged.numTotalTestSuites = Number(merged.numTotalTestSuites ?? 0) + 1;
      merged.numFailedTestSuites = Number(merged.numFailedTestSuites ?? 0) + 1;
      continue;
    }
    for (const [key, value] of Object.entries(report)) {
      if (key === 'testResults' && Array.isArray(value)) {
        merged.testResults = [.../** @type {unknown[]} */ (merged.testResults), ...value];
      } else if (key === 'success') merged.success = merged.success && value === true;
      else if (key === 'startTime') merged.startTime = Math.min(Number(merged.startTime ?? value), Number(value));
      else if (typeof value === 'number') merged[key] = Number(merged[key] ?? 0) + value;
      else if (key === 'snapshot' && value && typeof value === 'object') {
        const into = /** @type {Record<string, unknown>} */ (merged.snapshot ?? {});
        for (const [k, v] of Object.entries(value)) {
          if (typeof v === 'number') into[k] = Number(into[k] ?? 0) + v;
          else if (typeof v === 'boolean') into[k] = Boolean(into[k]) || v;
          else into[k] ??= v;
        }
        merged.snapshot = into;
      } else merged[key] ??= value;
    }
  }
  return merged;
}

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();

/**
 * Copies `stream` to `out` line by line, each line behind `tag`.
 * @param {import('node:stream').Readable} stream
 * @param {NodeJS.WritableStream} out
 * @param {string} tag
 */
function prefixLines(stream, out, tag) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (/** @type {string} */ chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`${tag}${line}\n`);
  });
  stream.on('end', () => {
    if (pending) out.write(`${tag}${pending}\n`);
  });
}

/**
 * Runs `vitest run` with `args`, its output line by line behind `tag` (the lanes write at once).
 * @param {string[]} args
 * @param {string} tag
 * @returns {Promise<number>} the exit code (1 when killed by a signal)
 */
function runVitest(args, tag) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitestBin, 'run', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    prefixLines(child.stdout, process.stdout, tag);
    prefixLines(child.stderr, process.stderr, tag);
    child.on('close', (code) => {
      children.delete(child);
      resolve(code ?? 1);
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (args.some((a) => a === '--project' || a.startsWith('--project='))) {
    const code = await runVitest(args, '');
    process.exit(code);
  }
  const { rest, jsonFile } = splitJsonOutput(args);
  const clobbered = rest.find(
    (a) => a === '--outputFile' || a.startsWith('--outputFile=') || a.startsWith('--outputFile.'),
  );
  if (clobbered !== undefined) {
    // Every lane would write the same file; only the JSON report can be merged.
    console.error(`${clobbered}: the lanes would each write it; use --outputFile.json=FILE, or name --project`);
    process.exit(2);
  }
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => {
      for (const child of children) child.kill(signal);
    });
  }
  const width = Math.max(...LANES.map((l) => l.name.length));
  const codes = await Promise.all(
    LANES.map((lane) => {
      const laneArgs = [...rest, '--passWithNoTests', ...lane.projects.flatMap((p) => ['--project', p])];
      if (jsonFile) laneArgs.push(`--outputFile.json=${jsonFile}.${lane.name}`);
      return runVitest(laneArgs, `${lane.name.padEnd(width)} │ `);
    }),
  );
  if (jsonFile) {
    const reports = LANES.map((lane) => {
      const file = `${jsonFile}.${lane.name}`;
      if (!existsSync(file)) return undefined;
      const report = JSON.parse(readFileSync(file, 'utf8'));
      rmSync(file);
      return report;
    });
    const merged = mergeReports(reports);
    writeFileSync(jsonFile, JSON.stringify(merged));
    console.log(
      `lanes: ${merged.numPassedTests ?? 0} passed, ${merged.numFailedTests ?? 0} failed, ` +
        `${merged.numPendingTests ?? 0} skipped (${LANES.map((l, i) => `${l.name} exit ${codes[i]}`).join(', ')})`,
    );
  }
  process.exit(codes.some((c) => c !== 0) ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
