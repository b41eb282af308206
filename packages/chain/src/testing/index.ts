/**
 * Test helpers for other packages' tests (`@lodestone/chain/testing`): two litecoind -regtest nodes,
 * a stand-in daemon over HTTP, and a stand-in chainweb-node (Kadena mining API). Not for production code.
 */
export {
  type ChainwebNodeOptions,
  type ChainwebNodeStandIn,
  realMainnetHeaders,
  STAND_IN_MINER,
  type StandInBlock,
  type StandInRejection,
  startChainwebNode,
} from './chainwebNode.js';
export { closeFakeDaemons, type FakeDaemonHandler, fakeDaemon, ok, reply } from './fakeDaemon.js';
export {
  findLitecoind,
  freePorts,
  type LitecoinRegtest,
  type LitecoinRegtestOptions,
  type RegtestNode,
  startLitecoinRegtest,
} from './regtest.js';
