export * from './reading-batch';
export * from './device-update';
export * from './read-model-writer';
export * from './read-model-reader';
export * from './device-history';
export * from './simulated-meter';
export * from './rebuild';
export * from './publish-simulated-meters';
