import type { Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import type { DatabaseOutage } from '@meter/persistence';

const encoder = new TextEncoder();

/**
 * Answers lookups on a core NATS subject, one auth replica per request (queue
 * group): each request's reply is `lookup`'s answer, or `unavailable` when
 * Postgres (or anything else) failed, logged once per outage.
 */
export function serveLookups<R>(options: {
  nc: NatsConnection;
  subject: string;
  queue: string;
  lookup: (data: Uint8Array) => Promise<R>;
  unavailable: R;
  outage: DatabaseOutage;
  logger: Logger;
}): Subscription {
  const { nc, subject, queue, lookup, unavailable, outage, logger } = options;
  return nc.subscribe(subject, {
    queue,
    callback: (error, message) => {
      if (error) return logger.warn(`${subject} subscription: ${error.message}`);
      void lookup(message.data)
        .catch((failure: unknown) => {
          if (!outage.report(failure)) logger.warn(`${subject} failed: ${failure instanceof Error ? failure.message : String(failure)}`);
          return unavailable;
        })
        .then((reply) => message.respond(encoder.encode(JSON.stringify(reply))));
    },
  });
}
