export * from './deliveries';
export * from './endpoints';
export * from './payloads';
export * from './produce';
export * from './queue';
export * from './schedule';
export * from './schemas';
export * from './sweep';
