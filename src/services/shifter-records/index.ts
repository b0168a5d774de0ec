export * from './counter-rules';
export * from './credentials';
export * from './mileage';
export * from './schemas';
