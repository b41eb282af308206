export * from './algorithms.js';
export * from './decimal.js';
export * from './format.js';
export * from './hashrate.js';
export * from './pagination.js';
export * from './shares.js';
export * from './units.js';
