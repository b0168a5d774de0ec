export * from './chat';
export * from './schemas';
