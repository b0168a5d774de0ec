export * from './crew-analytics';
export * from './earnings';
export * from './going-rate';
export * from './labor-costs';
export * from './rollups';
export * from './schemas';
