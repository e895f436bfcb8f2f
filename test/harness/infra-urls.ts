export interface InfraUrls {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  /** Where the URLs came from, for the run's first line. */
  source: Record<'postgres' | 'redis' | 'nats', 'env' | 'testcontainers'>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    infra: InfraUrls;
  }
}
