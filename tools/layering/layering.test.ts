import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Runs the real rules (.dependency-cruiser.cjs, the ones `npm run check` applies to apps/ and packages/)
// over fixture/, a miniature tree where each file either breaks one rule or is a case the rules must
// allow. The exact list of findings is asserted: a rule that stops matching, or starts flagging an
// allowed import, fails this test.

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('fixture', import.meta.url));

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** depcruise over the fixture, as `npm run check:layers` runs it over the repository. */
function depcruise(outputType: 'err' | 'json') {
  return spawnSync(
    process.execPath,
    [
      `${root}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`,
      'apps',
      'packages',
      '--config',
      `${root}.dependency-cruiser.cjs`,
      '--output-type',
      outputType,
    ],
    { cwd: fixture, encoding: 'utf8' },
  );
}

function violations(): Violation[] {
  const run = depcruise('json');
  if (run.stdout === '') throw new Error(`depcruise printed nothing: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

describe('layering rules', () => {
  it('fail the check (non-zero exit, rule named) when the tree breaks them', () => {
    const run = depcruise('err');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('error route-imports-route: apps/web/src/routes/stats/StatsPage.ts');
  });

  it('flag exactly the imports that break a rule, and none of the allowed ones', () => {
    // An npm package is named by its folder, not by the file its exports map picks.
    const named = (to: string) => to.replace(/^(\.\.\/)*node_modules\/([^/]+)\/.*$/, 'node_modules/$2');
    const found = violations()
      .map((v) => `${v.rule.name}: ${v.from} → ${named(v.to)}`)
      .sort();
    expect(found).toEqual(
      [
        'chain-imports-roles: apps/server/src/chains/kaspa/index.ts → apps/server/src/jobs/payouts.ts',
        'core-package-imports-io-package: packages/domain/src/ledger.ts → packages/db/src/index.ts',
        'db-chain-cross: packages/db/src/blocks.ts → packages/chain/src/index.ts',
        'e2e-bypasses-harness: apps/web/e2e/seed.ts → apps/server/src/app.ts',
        'not-to-unresolvable: apps/server/src/main.ts → ./missing',
        'package-imports-app: packages/db/src/index.ts → apps/server/src/app.ts',
        'pure-package-does-io: packages/domain/src/reads.ts → fs',
        'pure-package-does-io: packages/pow/src/store.ts → node_modules/pg',
        'route-imports-route: apps/web/src/routes/stats/StatsPage.ts → apps/web/src/routes/dashboard/ui.ts',
        'server-imports-web: apps/server/src/app.ts → apps/web/src/lib/format.ts',
        'service-imports-http: apps/server/src/services/login.ts → apps/server/src/http/errors.ts',
        'service-imports-job: apps/server/src/services/balance.ts → apps/server/src/jobs/payouts.ts',
        'stratum-imports-chain: apps/server/src/stratum/startStratum.ts → apps/server/src/chains/kaspa/index.ts',
        'stratum-imports-roles: apps/server/src/stratum/session.ts → apps/server/src/jobs/payouts.ts',
        'stratum-imports-roles: apps/server/src/stratum/session.ts → apps/server/src/services/login.ts',
        'web-does-io: apps/web/src/lib/file.ts → fs',
        'web-imports-beyond-contract-domain: apps/web/src/api/client.ts → apps/server/src/app.ts',
      ].sort(),
    );
  });
});
