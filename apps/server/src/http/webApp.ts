import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errors } from './errors.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Files at the site's root a browser must check on every use (docs/dashboard.md, Installing the dashboard): the
 * service worker, so a new build's worker reaches the browser at its next update check and not an hour later, and
 * the installed app's manifest. Their types are the static server's own: a JavaScript type for sw.js (which the
 * Service Workers spec requires) and application/manifest+json, the type the Web Application Manifest registers.
 */
const REVALIDATED = new Set(['sw.js', 'manifest.webmanifest']);
/** An observer key as the contract accepts it (packages/contract/src/mining.ts: 1 to 200 characters). */
const OBSERVER_KEY = /^[^/?#\s]{1,200}$/;

/**
 * Serves the built single-page site: hashed files under /assets are cached forever, other files for
 * an hour, and index.html — served for every client-side route — is never cached, so a deploy is
 * picked up on the next navigation; neither are the service worker and the manifest. Returns a sender
 * for the SPA fallback, or null when the site has not been built.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDir: string,
): Promise<((reply: FastifyReply) => FastifyReply) | null> {
  const indexFile = path.join(webDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ webDir }, 'the website is not built (run `npm run build`); serving the API only');
    return null;
  }
  const indexHtml = readFileSync(indexFile);
  await app.register(fastifyStatic, {
    root: webDir,
    index: false,
    redirect: false,
    // One route per built file, found at start-up: every other path falls through to the SPA handler.
    wildcard: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      const relative = path.relative(webDir, filePath);
      if (REVALIDATED.has(relative)) res.setHeader('cache-control', 'no-cache');
      else
        res.setHeader('cache-control', relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'public, max-age=3600');
    },
  });
  registerObserverManifest(app, path.join(webDir, 'manifest.webmanifest'));
  return (reply) =>
    reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
}

/**
 * GET /observer.webmanifest?key=…: the site's manifest, opening one observer dashboard. An observer has no login, so
 * the installed app must start at their link (/dashboard/<key>) and not at the miner's /dashboard; the observer page
 * links this manifest instead of the site's. Its own id, so one phone may install several observed accounts.
 */
function registerObserverManifest(app: FastifyInstance, manifestFile: string): void {
  if (!existsSync(manifestFile)) return;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  app.get('/observer.webmanifest', (request, reply) => {
    const { key } = request.query as { key?: unknown };
    if (typeof key !== 'string' || !OBSERVER_KEY.test(key)) throw errors.notFound();
    const start = `/dashboard/${encodeURIComponent(key)}`;
    return reply
      .type('application/manifest+json')
      .header('cache-control', 'no-cache')
      .send({ ...manifest, id: start, start_url: start, name: 'Observer dashboard', short_name: 'Observer' });
  });
}
