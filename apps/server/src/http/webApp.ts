import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built single-page site: hashed files under /assets are cached forever, other files for
 * an hour, and index.html — served for every client-side route — is never cached, so a deploy is
 * picked up on the next navigation. Returns a sender for the SPA fallback, or null when the site has
 * not been built.
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
      const inAssets = path.relative(webDir, filePath).startsWith(`assets${path.sep}`);
      res.setHeader('cache-control', inAssets ? IMMUTABLE : 'public, max-age=3600');
    },
  });
  return (reply) =>
    reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
}
