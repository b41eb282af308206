import type { PGliteOptions } from '@electric-sql/pglite';
import { TYPE_PARSERS } from './typeParsers.js';

/**
 * How every embedded database is opened. PostgreSQL's default 128 MB of shared buffers is sized for
 * a server of its own; PGlite touches them at start, and they were a third of `npm start`'s resident
 * memory (issue 21). 32 MB hold a small pool's hot pages; the rest stays in the system's file cache.
 */
export const PGLITE_OPTIONS = {
  parsers: TYPE_PARSERS,
  postgresqlconf: ['shared_buffers = 32MB'],
} satisfies PGliteOptions;
