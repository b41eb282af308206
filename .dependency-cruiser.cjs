// The dependency direction of ARCHITECTURE.md ("The dependency direction is one way"), checked by
// `npm run check:layers` (part of `npm run check`). tools/layering/layering.test.ts proves each rule
// fires on a fixture that breaks it, so a rule that stops matching fails a test.

/** Node modules that reach outside the process: files, sockets, processes, threads. */
const IO_CORE =
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|worker_threads|cluster|readline|os)$';
/** npm packages that talk to a database, a bus or a network. */
const IO_NPM = '(^|/)node_modules/(pg|@electric-sql/pglite|kysely|ws|@nats-io/[^/]+|fastify|nodemailer)/';
const TESTS = '(\\.test\\.tsx?|/testing/.*|/testing\\.ts)$';

/**
 * A rule that fails the check (every rule here is an error) when a module matching `from` imports one
 * matching `to`.
 */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to };
}

/** The modules under `path` but not its tests and test helpers. */
function codeUnder(path) {
  return { path, pathNot: TESTS };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'package-imports-app',
      'apps depend on packages, never the other way round.',
      { path: '^packages/' },
      { path: '^apps/' },
    ),
    forbid(
      'core-package-imports-io-package',
      'domain, pow and contract sit below chain and db: they never import them.',
      { path: '^packages/(domain|pow|contract)/' },
      { path: '^packages/(db|chain)/' },
    ),
    forbid(
      'db-chain-cross',
      'db and chain are siblings; what both need lives in domain.',
      { path: '^packages/(db|chain)/' },
      { path: '^packages/(db|chain)/', pathNot: '^packages/$1/' },
    ),
    forbid(
      'pure-package-does-io',
      'packages/domain and packages/pow are pure: no files, sockets, processes or databases.',
      codeUnder('^packages/(domain|pow)/src/'),
      { path: [IO_CORE, IO_NPM] },
    ),
    forbid(
      'web-imports-beyond-contract-domain',
      'The web app imports only packages/contract and packages/domain, never server code.',
      { path: '^apps/web/src/' },
      { path: ['^apps/server/', '^packages/(db|chain|pow)/'] },
    ),
    forbid(
      'web-does-io',
      'Browser code has no Node I/O modules (tests may read their fixtures).',
      codeUnder('^apps/web/src/'),
      { path: IO_CORE },
    ),
    forbid(
      'route-imports-route',
      'A screen never imports another screen: shared pieces live in components/ or lib/.',
      { path: '^apps/web/src/routes/([^/]+)/' },
      { path: '^apps/web/src/routes/[^/]+/', pathNot: '^apps/web/src/routes/$1/' },
    ),
    forbid(
      'e2e-bypasses-harness',
      'Browser tests reach server code only through apps/web/e2e/harness.ts.',
      { path: '^apps/web/e2e/', pathNot: '^apps/web/e2e/harness\\.ts$' },
      { path: '^apps/server/' },
    ),
    forbid(
      'server-imports-web',
      'The server serves the built site (apps/web/dist); it never imports the web sources.',
      { path: '^apps/server/' },
      { path: '^apps/web/' },
    ),
    forbid(
      'service-imports-http',
      'Services and jobs speak the domain: they throw domain errors and never import http/ or api/.',
      { path: '^apps/server/src/(services|jobs)/' },
      { path: '^apps/server/src/(http|api)/' },
    ),
    forbid(
      'stratum-imports-roles',
      'The stratum server answers miners on its own: it never imports services/, jobs/ or api/ (what it needs from them is passed in).',
      codeUnder('^apps/server/src/stratum/'),
      { path: '^apps/server/src/(services|jobs|api)/' },
    ),
    forbid(
      'stratum-imports-chain',
      'Chains plug into the stratum server (a chain module pairs its job source with its dialect as a StratumWork, passed in); stratum/ never imports chains/.',
      codeUnder('^apps/server/src/stratum/'),
      { path: '^apps/server/src/chains/' },
    ),
    forbid(
      'chain-imports-roles',
      'A chain module knows its chain: it never imports services/, jobs/, api/ or roles/ (they look chains up in chains/registry.ts).',
      codeUnder('^apps/server/src/chains/'),
      { path: '^apps/server/src/(services|jobs|api|roles)/' },
    ),
    forbid(
      'service-imports-job',
      'services/ is what the API and the jobs share: jobs build on services, never the other way round.',
      codeUnder('^apps/server/src/services/'),
      { path: '^apps/server/src/jobs/' },
    ),
    forbid(
      'not-to-unresolvable',
      'An import that resolves to nothing is a typo or a missing dependency.',
      {},
      { couldNotResolve: true },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
