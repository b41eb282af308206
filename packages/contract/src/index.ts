export * from './account.js';
export * from './accountRules.js';
export * from './admin.js';
export * from './bus.js';
export * from './common.js';
export * from './mining.js';
export * from './money.js';
export { API_PREFIX, type ApiPath, paths, type RouteName } from './paths.js';
export * from './pool.js';
export * from './public.js';
export * from './revenue.js';
export {
  type Refusal,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routes,
} from './routes.js';
export * from './site.js';
export * from './stratum.js';
