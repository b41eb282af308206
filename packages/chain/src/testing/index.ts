/**
 * Test helpers for other packages' tests (`@lodestone/chain/testing`): two litecoind -regtest nodes,
 * and a stand-in daemon over HTTP. Not for production code.
 */
export { closeFakeDaemons, type FakeDaemonHandler, fakeDaemon, ok, reply } from './fakeDaemon.js';
export {
  headerHash,
  merkleRoot,
  targetFromBits as kaspaTargetFromBitsStandIn,
  transactionHash,
  transactionIdV0,
} from './kaspaHashing.js';
export { type KaspaNodeOptions, KaspaNodeStandIn, type KaspaSubmission } from './kaspaNode.js';
export {
  findLitecoind,
  freePorts,
  type LitecoinRegtest,
  type LitecoinRegtestOptions,
  type RegtestNode,
  startLitecoinRegtest,
} from './regtest.js';
