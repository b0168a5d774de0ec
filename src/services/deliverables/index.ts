export * from './deliverables';
export * from './files';
export * from './schemas';
