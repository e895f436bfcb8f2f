export * from './ensure-database';
export * from './probe-postgres';
export * from './data-source';
export * from './run-migrations';
export * from './persistence.module';
export * from './create-schema.migration';
export * from './prepared-queries';
export * from './pg-listener';
