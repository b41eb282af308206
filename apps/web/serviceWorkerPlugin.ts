import { createHash } from 'node:crypto';
import path from 'node:path';
import { build, type Plugin } from 'vite';

/** The placeholder the worker's version is written over, once the worker's own text is known. */
const VERSION_PLACEHOLDER = '__lodestone_sw_version__';

/** Files outside /assets the worker stores at install: the shell, and what an installed app shows offline. */
const SHELL_FILES = ['/index.html', '/favicon.svg', '/manifest.webmanifest'];

interface Chunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * Builds src/sw/serviceWorker.ts into dist/sw.js (docs/dashboard.md, Installing the dashboard): one classic script
 * (a module worker is not supported by every phone browser), with the list of files it stores at install and a version
 * that is the hash of its own text, so any change to the site's entry, to the dashboards' files or to the worker makes
 * a new worker with new caches. Stored at install: the shell files, the entry with its static imports and styles, and
 * the two dashboards with everything they import, lazily loaded charts included; other screens' files are cached as
 * they are first used.
 */
export function serviceWorker(options: { entry: string; routes: readonly string[] }): Plugin {
  let root = '';
  return {
    name: 'lodestone-service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file as Chunk);
      const files = new Set<string>();
      const add = (fileName: string, dynamic: boolean) => {
        const chunk = chunks.get(fileName);
        if (!chunk || files.has(fileName)) return;
        files.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        for (const imported of chunk.imports) add(imported, dynamic);
        if (dynamic) for (const imported of chunk.dynamicImports) add(imported, dynamic);
      };
      const routes = options.routes.map((route) => path.resolve(root, route));
      for (const chunk of chunks.values()) {
        if (chunk.isEntry) add(chunk.fileName, false);
        if (chunk.facadeModuleId && routes.includes(chunk.facadeModuleId)) add(chunk.fileName, true);
      }
      const found = [...chunks.values()].filter((c) => c.facadeModuleId && routes.includes(c.facadeModuleId));
      if (found.length !== routes.length) {
        throw new Error(`service worker: ${options.routes.join(', ')} are not all chunks of the build`);
      }
      const precache = [...SHELL_FILES, ...[...files].sort().map((file) => `/${file}`)];

      const output = await build({
        configFile: false,
        root,
        logLevel: 'warn',
        publicDir: false,
        define: {
          __SW_VERSION__: JSON.stringify(VERSION_PLACEHOLDER),
          __SW_PRECACHE__: JSON.stringify(precache),
        },
        build: {
          write: false,
          emptyOutDir: false,
          minify: true,
          lib: {
            entry: path.resolve(root, options.entry),
            formats: ['iife'],
            name: 'lodestoneSw',
            fileName: () => 'sw.js',
          },
        },
      });
      const outputs = Array.isArray(output) ? output : [output];
      const code = outputs.flatMap((o) => ('output' in o ? o.output : [])).find((file) => file.type === 'chunk')?.code;
      if (!code) throw new Error('service worker: the build produced no script');
      const version = createHash('sha256').update(code).digest('hex').slice(0, 16);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: code.replaceAll(VERSION_PLACEHOLDER, version) });
    },
  };
}
