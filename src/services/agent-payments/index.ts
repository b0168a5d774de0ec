export * from './prepay';
export * from './tokens';
