import { fileURLToPath } from 'node:url';

/**
 * Where `vite build` puts the website. This module sits at the top of `src/`, and the bundle at the
 * top of `dist/`, so the same relative path is right in both.
 */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
