// npm run bench:web — page weight: what a browser downloads to show each screen of the website, from
// a production build (vite build, into a temporary folder), as raw, gzip and brotli bytes. The
// baseline, measured in the same run, is the home page: everything a first visit loads (the entry
// script, its static imports and its styles). Every other screen adds its own lazily loaded chunk and
// what that chunk imports beyond what home already has; its ratio is its total against home's.
//
// It also keeps two promises of the site's design: zod (the contract's schemas) is in no chunk of
// the site — the web imports only types and plain constants from packages/contract — and home stays
// within its budget. Either failing ends the run with an error. `--short` is accepted for CI and
// changes nothing: one build is the whole cost (tens of seconds).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const webDir = fileURLToPath(new URL('..', import.meta.url));
/** Home's whole first load, gzip: the React runtime, the router, the layout and the home page. */
const HOME_BUDGET_GZIP = 150 * 1024;
/** Strings only zod's runtime holds; any of them in a chunk means the schemas were bundled. */
const ZOD_MARKERS = ['ZodError', '$ZodType'];

/** The screens of src/routes/pages.ts, as the source file of each lazily loaded page. */
function pageSources() {
  const text = readFileSync(path.join(webDir, 'src/routes/pages.ts'), 'utf8');
  const pages = [];
  for (const match of text.matchAll(/path: '([^']+)'[\s\S]*?import\('\.\/([^']+)'\)/g)) {
    pages.push({ path: `/${match[1]}`, source: `src/routes/${match[2]}.tsx` });
  }
  if (pages.length === 0) throw new Error('no pages found in src/routes/pages.ts');
  return pages;
}

/** The files a manifest entry needs: itself, its static imports (transitively) and their styles. */
function closure(manifest, key, into = new Set()) {
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is not in the build manifest`);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const css of entry.css ?? []) into.add(css);
  for (const imported of entry.imports ?? []) closure(manifest, imported, into);
  return into;
}

function sizes(outDir, files) {
  const total = { raw: 0, gzip: 0, brotli: 0, js: 0, css: 0 };
  for (const file of files) {
    const bytes = readFileSync(path.join(outDir, file));
    total.raw += bytes.length;
    total.gzip += gzipSync(bytes, { level: 9 }).length;
    total.brotli += brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
    if (file.endsWith('.js')) total.js += 1;
    if (file.endsWith('.css')) total.css += 1;
  }
  return total;
}

const kb = (bytes) => (bytes / 1024).toFixed(1);

async function main() {
  const outDir = mkdtempSync(path.join(tmpdir(), 'lodestone-web-weight-'));
  try {
    // The production build whatever NODE_ENV the caller has (under a test runner it is 'test', and Vite
    // would bundle React's development build, half as large again).
    process.env.NODE_ENV = 'production';
    await build({
      root: webDir,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
    const home = closure(manifest, 'index.html');
    for (const { file } of Object.values(manifest)) {
      const text = readFileSync(path.join(outDir, file), 'utf8');
      const marker = ZOD_MARKERS.find((m) => text.includes(m));
      if (marker) throw new Error(`zod is in the site (${file} holds "${marker}")`);
    }
    const homeSize = sizes(outDir, home);
    const rows = [['/ (home, baseline)', homeSize, homeSize]];
    for (const page of pageSources()) {
      const own = [...closure(manifest, page.source)].filter((file) => !home.has(file));
      const added = sizes(outDir, own);
      const total = sizes(outDir, [...home, ...own]);
      rows.push([page.path, added, total]);
    }

    console.log('bench:web — page weight of the production build (KiB; brotli q11, gzip -9)');
    console.log(
      `  ${'screen'.padEnd(34)}${'adds gzip'.padStart(11)}${'total raw'.padStart(11)}${'total gzip'.padStart(12)}${'total br'.padStart(10)}   × home`,
    );
    for (const [name, added, total] of rows) {
      const adds = name.startsWith('/ (home') ? '' : kb(added.gzip);
      console.log(
        `  ${name.padEnd(34)}${adds.padStart(11)}${kb(total.raw).padStart(11)}${kb(total.gzip).padStart(12)}${kb(total.brotli).padStart(10)}   ${(total.gzip / homeSize.gzip).toFixed(2)}×`,
      );
    }
    console.log(
      `  home's first load: ${homeSize.js} scripts, ${homeSize.css} stylesheets, ${kb(homeSize.gzip)} KiB gzip (budget ${kb(HOME_BUDGET_GZIP)}); no zod in any chunk`,
    );
    if (homeSize.gzip > HOME_BUDGET_GZIP) {
      throw new Error(
        `home's first load is ${kb(homeSize.gzip)} KiB gzip, over its ${kb(HOME_BUDGET_GZIP)} KiB budget`,
      );
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
