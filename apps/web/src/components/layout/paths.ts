/**
 * Pages shown without the site's nav and footer (docs/website.md, Layout and navigation): login, register, reset
 * password, forgot password, logo and signature verification. Route matching is case-insensitive, so
 * this is too.
 */
const BARE_PATHS = new Set(['/login', '/register', '/newpassword', '/forgotpassword', '/logo']);

export function hidesSiteChrome(pathname: string): boolean {
  const path = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return BARE_PATHS.has(path) || /^\/signature\/[^/]+$/.test(path);
}
