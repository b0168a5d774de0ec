export * from './counterparties';
export * from './list';
export * from './requests';
export * from './schemas';
