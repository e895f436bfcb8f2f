export * from './build-document';
export * from './collect-controllers';
export * from './documented';
export * from './merge-responses';
export * from './responses';
export * from './serve-openapi';
