export * from './account.js';
export * from './common.js';
export * from './money.js';
export * from './pool.js';
export { API_PREFIX, routes } from './routes.js';
export * from './site.js';
export * from './stratum.js';
