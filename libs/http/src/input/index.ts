export * from './read-input';
