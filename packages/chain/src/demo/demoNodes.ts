/**
 * The demo network's nodes for CKB, Kaspa, Kadena and SCRYPT's merge-mined Dogecoin and Bellscoin: the stand-ins of `../testing` (a CKB node,
 * kaspad, chainweb-node), which speak each node's real transport, build real headers and verify what
 * they are sent with their own code. `npm start` runs the real CkbJobSource, KaspaJobSource,
 * KadenaJobSource and AuxChainSource against them, in process, at an easy target, so the demo mines these coins with the
 * same job-source code a pool on real nodes uses. Exported under these names (`@lodestone/chain/demo-nodes`)
 * so that production code says it runs a demo node, never a test helper.
 */
export {
  STAND_IN_MINER as CHAINWEB_DEMO_MINER,
  startChainwebNode as startChainwebDemoNode,
} from '../testing/chainwebNode.js';
export {
  SECP256K1_BLAKE160_CODE_HASH,
  startCkbNode as startCkbDemoNode,
} from '../testing/ckbNode.js';
export { startAuxDaemon as startAuxDemoNode } from '../testing/dogecoind.js';
export { KaspaNodeStandIn as KaspaDemoNode } from '../testing/kaspaNode.js';
