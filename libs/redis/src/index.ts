export * from './create-redis';
export * from './redis.module';
