export { DEFAULT_CONNECTION_LIMITS } from './listener.js';
export type { StratumLog } from './log.js';
export { DEFAULT_SESSION_LIMITS, type ListenerKind } from './session.js';
export {
  type StratumListenerInfo,
  type StratumListenerOptions,
  type StratumOptions,
  type StratumServer,
  startStratum,
} from './startStratum.js';
export { DEFAULT_VARDIFF } from './vardiff.js';
