export * from './bus';
export * from './streams';
export * from './auth-events';
export * from './vault';
export * from './readings';
export * from './reading-message-reader';
export * from './credential-usage';
