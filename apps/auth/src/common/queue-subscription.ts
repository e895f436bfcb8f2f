import type { Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import type { DatabaseOutage } from '@meter/persistence';

const encoder = new TextEncoder();

/**
 * A core NATS subscription in a queue group (one auth replica per message):
 * each message goes to `handle`; a failure is logged, a Postgres outage once
 * (DatabaseOutage). With `reply`, the handler's answer (or `reply.failed`)
 * is sent back as JSON.
 */
export function subscribeQueue<R>(options: {
  nc: NatsConnection;
  subject: string;
  queue: string;
  logger: Logger;
  outage: DatabaseOutage;
  handle: (data: Uint8Array) => Promise<R>;
  reply?: { failed: R };
}): Subscription {
  const { nc, subject, queue, logger, outage, handle, reply } = options;
  return nc.subscribe(subject, {
    queue,
    callback: (error, message) => {
      if (error) return logger.warn(`${subject} subscription: ${error.message}`);
      void handle(message.data)
        .catch((failure: unknown) => {
          if (!outage.report(failure)) logger.warn(`${subject} failed: ${failure instanceof Error ? failure.message : String(failure)}`);
          return reply?.failed;
        })
        .then((answer) => {
          if (reply) message.respond(encoder.encode(JSON.stringify(answer)));
        });
    },
  });
}
