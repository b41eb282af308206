/**
 * Test helpers for other packages' tests (`@lodestone/chain/testing`): two litecoind -regtest nodes,
 * a stand-in daemon over HTTP, and stand-ins for the nodes that cannot run here (dashd, CKB, kaspad, chainweb-node), each
 * checking what it is sent with its own code. Not for production code.
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
export {
  type CkbNodeOptions,
  CkbStandInNode,
  type CkbSubmission,
  OTHER_MINER_LOCK,
  SECP256K1_BLAKE160_CODE_HASH,
  startCkbNode,
} from './ckbNode.js';
export { REAL_CKB_CHAIN, REAL_CKB_POW_BLOCK, type RealCkbBlock } from './ckbRealTemplates.js';
export {
  type BlockExpectation,
  checkBlockAgainst,
  checkBlockAlone,
  type DashBlock,
  type DashTx,
  dashBlockHash,
  decodeDashBlock,
  type ExpectedPayee,
  merkleRootOf,
  readDashTx,
} from './dashBlock.js';
export {
  type Dashd,
  type DashdBlock,
  type DashdOptions,
  EASY_BITS,
  REAL_TESTNET_BLOCK,
  REAL_TESTNET_TEMPLATE,
  startDashd,
  v20MasternodePayees,
} from './dashd.js';
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
