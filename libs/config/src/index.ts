export * from './env.schema';
export * from './load-config';
export * from './config.module';
export * from './redact-url';
export * from './cidr';
