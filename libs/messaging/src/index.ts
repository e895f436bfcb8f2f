export * from './connect-nats';
export * from './ensure-stream';
export * from './ensure-consumer';
export * from './nats.module';
export * from './outbox-relay';
export * from './outbox-relay-lifecycle';
export * from './nats-server-version';
export * from './rpc';
