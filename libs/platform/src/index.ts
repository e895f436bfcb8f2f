export * from './preflight';
export * from './run-service';
