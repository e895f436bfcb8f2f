export * from './infra-urls';
export * from './isolated-infra';
export * from './free-port';
export * from './tcp-proxy';
export * from './platform-process';
export * from './raw-http';
export * from './private-nats';
export * from './parquet-file';
