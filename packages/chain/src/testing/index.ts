/**
 * Test helpers for other packages' tests (`@lodestone/chain/testing`): two litecoind -regtest nodes, a
 * real EVM node (Hardhat's) with the TestUsd token, a stand-in daemon over HTTP, and stand-ins for the
 * nodes that cannot run here (dashd, dogecoind as a merged-mining aux daemon, CKB, kaspad,
 * chainweb-node), each checking what it is sent with its own code. Not for production code.
 */

export { bitcoinCoreBlockStats, startBlockStatsNode } from './blockStatsNode.js';
export { type ChainwebNodeStandIn, realMainnetHeaders, STAND_IN_MINER, startChainwebNode } from './chainwebNode.js';
export { CkbStandInNode, STAND_IN_SECP256K1_DEP_GROUP, startCkbNode } from './ckbNode.js';
export { REAL_CKB_CHAIN, REAL_CKB_POW_BLOCK, type RealCkbBlock } from './ckbRealTemplates.js';
export { type Dashd, startDashd } from './dashd.js';
export { type AuxDaemon, startAuxDaemon } from './dogecoind.js';
export { type EvmNode, startEvmNode } from './evmNode.js';
export { closeFakeDaemons } from './fakeDaemon.js';
export { realKaspaBlocks } from './kaspaFixtures.js';
export { type KaspaNodeOptions, KaspaNodeStandIn } from './kaspaNode.js';
export { findLitecoind, type LitecoinRegtest, startLitecoinRegtest } from './regtest.js';
export { deployTestUsd, TEST_USD_DECIMALS } from './testUsd.js';
