/**
 * Test helpers for other packages' tests (`@lodestone/chain/testing`): two litecoind -regtest nodes,
 * a stand-in daemon over HTTP, and a stand-in CKB node (a real chain behind CKB's JSON-RPC). Not for
 * production code.
 */
export {
  type CkbNodeOptions,
  CkbStandInNode,
  type CkbSubmission,
  OTHER_MINER_LOCK,
  SECP256K1_BLAKE160_CODE_HASH,
  startCkbNode,
} from './ckbNode.js';
export { closeFakeDaemons, type FakeDaemonHandler, fakeDaemon, ok, reply } from './fakeDaemon.js';
export {
  findLitecoind,
  freePorts,
  type LitecoinRegtest,
  type LitecoinRegtestOptions,
  type RegtestNode,
  startLitecoinRegtest,
} from './regtest.js';
