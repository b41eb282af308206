import { defineConfig, type Plugin } from 'vitest/config';

/** Migrations are plain .sql files that the server bundle embeds as text; tests load them the same way. */
export const sqlAsText: Plugin = {
  name: 'sql-as-text',
  transform(code, id) {
    if (id.endsWith('.sql')) return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

const integration = ['**/*.db.test.ts', '**/*.api.test.ts', '**/*.int.test.ts'];
// The server's own root: the tests that run the real bundle as a process (and the app and pipeline
// tests beside them). Each runs a pool with its demo fleet; two at once starved each other's miners.
const processTests = ['apps/server/src/*.api.test.ts'];
const daemon = ['**/*.daemon.test.ts'];
// Soak tests (issue 27): long runs of the real program, each also in a short form that proves it works.
// `npm test` runs the short form; `npm run test:soak` (SOAK=full) runs them at full length.
const soak = ['apps/server/src/*.soak.test.ts'];
// The multi-process pool under one fault at a time (issue 32): its own project, one file, minutes long.
const faults = ['**/*.fault.test.ts'];
const browser = ['**/*.e2e.test.ts'];
// CPU miners hashing flat out against the demo network (issue 29: a solo block on every algorithm):
// a core for half a minute, so one file at a time, in the browser lane, which has the most room.
const cpu = ['**/*.cpu.test.ts'];
// The `bench:*` scripts in their short form (they are not timed tests: this proves they run).
const benchmarks = ['tools/benchmarks/*.test.ts'];

export default defineConfig({
  plugins: [sqlAsText],
  test: {
    env: { TZ: 'UTC' },
    // Never retry: a flaky test is a bug to fix, not to hide.
    retry: 0,
    // Vitest's default is one worker less than the cores: one file at a time on CI's two cores, where most
    // integration files wait on sockets, processes and timers rather than compute. Three files at a time:
    // the fault campaign holds one worker for seven and a half minutes while its pool mostly waits out
    // its faults, and two more keep both cores busy meanwhile (at two, the campaign cost CI four minutes).
    // `npm test` (tools/lanes/lanes.mjs) runs the projects without file parallelism in two more
    // `vitest run`s beside these (browser; daemon, process and soak): in one run Vitest queues them
    // after every parallel file.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // tools/<name>/*.test.ts: checks of the repository's own tooling (not their fixtures, one level down).
          include: ['{apps,packages}/*/src/**/*.test.{ts,tsx}', 'tools/*/*.test.ts'],
          // Pure code: the files of a worker share its modules instead of importing everything again
          // per file (218 files: 149 → 67 CPU seconds, 92 → 51 s). A test that stubs a global or
          // the clock restores it (vi.unstubAllGlobals, vi.useRealTimers) for the files after it.
          isolate: false,
          exclude: [
            ...integration,
            ...daemon,
            ...browser,
            ...faults,
            ...soak,
            ...cpu,
            ...benchmarks,
            '**/node_modules/**',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration.map((p) => `{apps,packages}/*/src/${p}`),
          exclude: [...daemon, ...processTests, '**/node_modules/**'],
          // As the unit files: each file opens its own databases, servers and stand-ins and closes
          // them, so sharing a worker's modules is safe (the server keeps no state in module scope:
          // caches belong to the app or service instance), and the import per file goes (31 s of import
          // for 120 files instead of several minutes).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: processTests,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One at a time: beside any other file, but never beside another pool process.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Process tests too, each setting its own timeout for its length: one at a time, with the
          // process files.
          name: 'soak',
          include: soak,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Real coin daemons (litecoind -regtest, two nodes per file).
          name: 'daemon',
          include: ['{apps,packages}/*/src/**/*.daemon.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Two stratum nodes, an API, two jobs processes, NATS, litecoind, mostly waiting out faults:
          // one file, run beside the unit and integration files. (A project without file parallelism
          // joins the one queue run after them, with the process and browser files: 7 more minutes.)
          name: 'faults',
          include: ['apps/server/src/faults/*.fault.test.ts'],
          testTimeout: 30 * 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'cpu',
          include: cpu.map((p) => `{apps,packages}/*/src/${p}`),
          testTimeout: 300_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'benchmarks',
          include: benchmarks,
          // A benchmark takes a core or two for up to a minute: one at a time, never beside another.
          testTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          // Each file builds its own app on its own database (e2e/harness.ts): one worker runs them
          // all, importing the server once instead of once per file.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits one second by default: a page on a loaded CI machine can take longer to
          // render its first answer (CI saw 'Loading…' past it). Each poll still waits for its condition.
          expect: { poll: { timeout: 10_000 } },
          // One Chromium at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
