export * from './bus';
export * from './streams';
