// The dependency direction of ARCHITECTURE.md ("The dependency direction is one way"), checked by
// `npm run check:layers` (part of `npm run check`). tools/layering/layering.test.ts proves each rule
// fires on a fixture that breaks it, so a rule that stops matching fails a test.

/** Node modules that reach outside the process: files, sockets, processes, threads. */
const IO_CORE =
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|worker_threads|cluster|readline|os)$';
/** npm packages that talk to a database, a bus or a network. */
const IO_NPM = '(^|/)node_modules/(pg|@electric-sql/pglite|kysely|ws|@nats-io/[^/]+|fastify|nodemailer)/';
const TESTS = '(\\.test\\.tsx?|/testing/.*|/testing\\.ts)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'package-imports-app',
      comment: 'apps depend on packages, never the other way round.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'core-package-imports-io-package',
      comment: 'domain, pow and contract sit below chain and db: they never import them.',
      severity: 'error',
      from: { path: '^packages/(domain|pow|contract)/' },
      to: { path: '^packages/(db|chain)/' },
    },
    {
      name: 'db-chain-cross',
      comment: 'db and chain are siblings; what both need lives in domain.',
      severity: 'error',
      from: { path: '^packages/(db|chain)/' },
      to: { path: '^packages/(db|chain)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'pure-package-does-io',
      comment: 'packages/domain and packages/pow are pure: no files, sockets, processes or databases.',
      severity: 'error',
      from: { path: '^packages/(domain|pow)/src/', pathNot: TESTS },
      to: { path: [IO_CORE, IO_NPM] },
    },
    {
      name: 'web-imports-beyond-contract-domain',
      comment: 'The web app imports only packages/contract and packages/domain, never server code.',
      severity: 'error',
      from: { path: '^apps/web/src/' },
      to: { path: ['^apps/server/', '^packages/(db|chain|pow)/'] },
    },
    {
      name: 'web-does-io',
      comment: 'Browser code has no Node I/O modules (tests may read their fixtures).',
      severity: 'error',
      from: { path: '^apps/web/src/', pathNot: TESTS },
      to: { path: IO_CORE },
    },
    {
      name: 'route-imports-route',
      comment: 'A screen never imports another screen: shared pieces live in components/ or lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/routes/([^/]+)/' },
      to: { path: '^apps/web/src/routes/[^/]+/', pathNot: '^apps/web/src/routes/$1/' },
    },
    {
      name: 'e2e-bypasses-harness',
      comment: 'Browser tests reach server code only through apps/web/e2e/harness.ts.',
      severity: 'error',
      from: { path: '^apps/web/e2e/', pathNot: '^apps/web/e2e/harness\\.ts$' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-imports-web',
      comment: 'The server serves the built site (apps/web/dist); it never imports the web sources.',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'service-imports-http',
      comment: 'Services and jobs speak the domain: they throw domain errors and never import http/ or api/.',
      severity: 'error',
      from: { path: '^apps/server/src/(services|jobs)/' },
      to: { path: '^apps/server/src/(http|api)/' },
    },
    {
      name: 'stratum-imports-roles',
      comment:
        'The stratum server answers miners on its own: it never imports services/, jobs/ or api/ (what it needs from them is passed in).',
      severity: 'error',
      from: { path: '^apps/server/src/stratum/', pathNot: TESTS },
      to: { path: '^apps/server/src/(services|jobs|api)/' },
    },
    {
      name: 'stratum-imports-chain',
      comment:
        'Chains plug into the stratum server (a chain module pairs its job source with its dialect as a StratumWork, passed in); stratum/ never imports chains/.',
      severity: 'error',
      from: { path: '^apps/server/src/stratum/', pathNot: TESTS },
      to: { path: '^apps/server/src/chains/' },
    },
    {
      name: 'chain-imports-roles',
      comment:
        'A chain module knows its chain: it never imports services/, jobs/, api/ or roles/ (they look chains up in chains/registry.ts).',
      severity: 'error',
      from: { path: '^apps/server/src/chains/', pathNot: TESTS },
      to: { path: '^apps/server/src/(services|jobs|api|roles)/' },
    },
    {
      name: 'service-imports-job',
      comment: 'services/ is what the API and the jobs share: jobs build on services, never the other way round.',
      severity: 'error',
      from: { path: '^apps/server/src/services/', pathNot: TESTS },
      to: { path: '^apps/server/src/jobs/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
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
