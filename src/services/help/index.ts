export * from './articles';
export * from './ask';
export * from './feedback';
export * from './fts-query';
export * from './prompt';
export * from './schemas';
export * from './search';
export * from './conversations';
