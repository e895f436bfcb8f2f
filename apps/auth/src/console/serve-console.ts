import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_HEADERS, IMMUTABLE_CACHE, PAGE_CACHE } from './console-headers';

/** Where `npm run build` puts the console (vite build into dist/console), seen from dist/apps/auth/src/console. */
export const CONSOLE_BUILD_DIR = join(__dirname, '..', '..', '..', '..', 'console');

/**
 * Serves the admin console at /console/: hashed assets long-cached, and the page for every other path
 * under /console/ (the console routes in the browser). Nothing comes from elsewhere, so it works offline.
 * Serves nothing, with a warning, when the console was not built.
 */
export async function serveConsole(fastify: FastifyInstance, dir = CONSOLE_BUILD_DIR): Promise<void> {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) {
    fastify.log.warn({ dir }, 'no admin console build here: /console/ answers 404 (npm run build builds it)');
    return;
  }
  const page = readFileSync(indexFile);
  await fastify.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/console/assets/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    setHeaders: (reply) => {
      reply.headers({ ...CONSOLE_HEADERS, 'cache-control': IMMUTABLE_CACHE });
    },
  });
  const sendPage = (_request: unknown, reply: { headers(values: Record<string, string>): { type(value: string): { send(body: Buffer): void } } }) =>
    reply
      .headers({ ...CONSOLE_HEADERS, 'cache-control': PAGE_CACHE })
      .type('text/html; charset=utf-8')
      .send(page);
  fastify.get('/console', (_request, reply) => reply.redirect('/console/', 308));
  fastify.get('/console/', sendPage);
  fastify.get('/console/*', sendPage);
}
