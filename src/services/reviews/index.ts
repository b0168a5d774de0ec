export * from './aggregates';
export * from './create';
export * from './disputes';
export * from './list';
export * from './respond';
export * from './schemas';
export * from './trend';
export * from './view';
