// Bundles the server (and its benchmark) with esbuild: workspace packages are compiled in, npm
// dependencies stay external and load from node_modules, SQL migrations are embedded as text.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const workspaceDeps = (deps) => Object.keys(deps ?? {}).filter((d) => !d.startsWith('@lodestone/'));
const external = [...workspaceDeps(pkg.dependencies), ...workspaceDeps(pkg.devDependencies)];
for (const dir of [
  '../../packages/db',
  '../../packages/contract',
  '../../packages/domain',
  '../../packages/pow',
  '../../packages/chain',
]) {
  const p = JSON.parse(readFileSync(new URL(`${dir}/package.json`, import.meta.url), 'utf8'));
  external.push(...workspaceDeps(p.dependencies));
}

await build({
  entryPoints: {
    main: 'src/main.ts',
    'pglite-worker': 'src/pgliteWorker.ts',
    'bench-api': 'bench/api.bench.ts',
    'bench-stratum': 'bench/stratum.bench.ts',
    'bench-accounting': 'bench/accounting.bench.ts',
    'bench-dashboard': 'bench/dashboard.bench.ts',
    'ledger-check': 'scripts/ledgerCheck.ts',
    'config-docs': 'scripts/configDocs.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...new Set(external)],
  loader: { '.sql': 'text' },
  logLevel: 'warning',
});

// Real data read beside the bundle (`./fixtures/…` from import.meta.url, which in the bundle is dist/):
// the demo network's chainweb node (@lodestone/chain/demo-nodes) starts from a real mainnet header, and
// bench:stratum's Kaspa case mines real blocks (rusty-kaspa's goref test data).
for (const fixture of ['chainweb-mining-client-test-headers.bin', 'kaspa/goref-blocks.jsonl']) {
  const to = new URL(`./dist/fixtures/${fixture}`, import.meta.url);
  mkdirSync(new URL('.', to), { recursive: true });
  copyFileSync(new URL(`../../packages/chain/src/testing/fixtures/${fixture}`, import.meta.url), to);
}
