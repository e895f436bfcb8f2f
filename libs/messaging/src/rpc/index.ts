export * from './deadline';
export * from './rpc-failure';
export * from './rpc-server';
export * from './rpc-client';
