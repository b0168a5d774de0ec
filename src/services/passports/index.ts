export * from './passports';
export * from './schemas';
