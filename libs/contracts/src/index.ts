export * from './bus';
export * from './streams';
export * from './auth-events';
export * from './vault';
export * from './readings';
export * from './credential-usage';
