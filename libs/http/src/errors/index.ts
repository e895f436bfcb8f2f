export * from './error-codes';
export * from './documented-codes';
export * from './error-page';
export * from './problem-type';
