export * from './preflight';
export * from './create-http-app';
export * from './run-service';
