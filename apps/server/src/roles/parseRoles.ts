import { parseArgs } from 'node:util';

export const ROLES = ['api', 'stratum', 'jobs'] as const;
export type Role = (typeof ROLES)[number];

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * `lodestone [--role=api,stratum,jobs]`: which parts of the pool this process runs (all by
 * default, which is what `npm start` does).
 */
export function parseRoles(argv: readonly string[]): Set<Role> {
  let values: { role?: string | undefined };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { role: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.role === undefined) return new Set(ROLES);
  const roles = values.role
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (roles.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--role: expected a comma-separated list of ${ROLES.join(', ')}; got ${JSON.stringify(values.role)}`,
    );
  }
  return new Set(roles as Role[]);
}
