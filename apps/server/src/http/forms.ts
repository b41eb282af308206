import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { errors } from './errors.js';

/** What busboy counts in one form (@fastify/multipart's `limits`). */
export interface FormLimits {
  fieldNameSize: number;
  fieldSize: number;
  fields: number;
  files: number;
  parts: number;
}

/**
 * Multipart forms under a whole-body limit. Fastify applies `bodyLimit` only to bodies it reads itself;
 * @fastify/multipart pipes the raw request into busboy, whose limits count fields and parts but not
 * the body, so without this a 200 MB form would be read to its end. A declared Content-Length above the
 * limit is refused before a byte is read; a longer body (chunked, or lying about its length) is cut off
 * as soon as it passes the limit. Both answer 413 and close the connection rather than drain the rest.
 */
export async function registerForms(app: FastifyInstance, limits: FormLimits, bodyLimit: number): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return;
    const declared = Number(request.headers['content-length']);
    if (declared > bodyLimit) {
      reply.header('connection', 'close');
      throw errors.payloadTooLarge();
    }
    const raw = request.raw;
    let received = 0;
    // A 'data' listener would start the flow itself: paused, it only sees what busboy's pipe pulls.
    raw.pause();
    raw.on('data', function count(chunk: Buffer) {
      received += chunk.length;
      if (received <= bodyLimit) return;
      raw.removeListener('data', count);
      reply.header('connection', 'close');
      // While the form is read, @fastify/multipart listens for errors and rejects the parse with this one.
      if (raw.listenerCount('error') > 0) raw.emit('error', errors.payloadTooLarge());
      else raw.destroy();
    });
  });
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits });
}
