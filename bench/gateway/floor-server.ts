import Redis from 'ioredis';
import { floorApp } from './floor-app';

/** The floor (floor-app.ts) as a process of its own, configured by the benchmark (run.ts). */
async function main() {
  const port = Number(process.env.FLOOR_PORT);
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'floor:' });
  const app = floorApp({
    redis,
    // A credential just created: version 1, as the gateway's view holds it.
    credential: { accessKey: process.env.FLOOR_ACCESS_KEY ?? '', secretKey: process.env.FLOOR_SECRET_KEY ?? '', credentialId: 'floor', version: 1 },
    limit: Number(process.env.RATE_LIMIT_PER_MINUTE ?? 60),
    body: process.env.FLOOR_BODY ?? '{}',
    contentType: process.env.FLOOR_CONTENT_TYPE ?? 'application/json; charset=utf-8',
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => redis.quit())
        .then(() => process.exit(0)),
  );
}

void main();
