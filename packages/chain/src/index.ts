/**
 * @lodestone/chain — coin daemons and the demo network as job sources for the stratum servers.
 *
 * - `DaemonJobSource`: jobs from bitcoin-family daemons (getblocktemplate, polling + long poll,
 *   failover), blocks submitted to every daemon.
 * - `DemoJobSource`: the in-process demo network when no daemon is configured.
 * - `createTemplateJob`: a BitcoinJob (header and block builder) from any block template.
 * - `CkbJobSource`, `createCkbJob`, `ckbBlockStatus`: Nervos CKB (Eaglesong) jobs from CKB nodes, the
 *   block to submit for 16 nonce bytes, and a found block's status and real reward.
 * - `KadenaJobSource`: Kadena (BLAKE2S) jobs from chainweb nodes' mining API, per chain; `KadenaJob`,
 *   the chainweb client, headers and block hashes, block status.
 * - the few bitcoin primitives the server uses directly (addresses, networks), and the typed RPC client.
 */

export type { PayoutNetwork } from './addresses/checker.js';
export { decodeCkbAddress } from './addresses/ckb.js';
export { decodeKaspaAddress, encodeKaspaAddress } from './addresses/kaspa.js';
export { ADDRESS_FORMATS, type AddressFormat, validatePayoutAddress } from './addresses/validateAddress.js';
export { AuxChainSource } from './auxpow/auxChain.js';
export {
  MergedMining,
  type MergedWork,
  mergedWork,
  shareAuxPow,
} from './auxpow/merged.js';
export { encodeSegwitAddress, p2pkhAddress } from './bitcoin/address.js';
export { prevHashToNotify } from './bitcoin/header.js';
export { NETWORKS } from './bitcoin/networks.js';
export { ckbBlockStatus } from './ckb/blockStatus.js';
export { type CkbJob, createCkbJob } from './ckb/job.js';
export { CkbJobSource } from './ckb/jobSource.js';
export { headerHash as ckbHeaderHash } from './ckb/parse.js';
export { ckbCompactFromTarget } from './ckb/target.js';
export type { CkbJsonBlock, CkbJsonScript } from './ckb/types.js';
export { toCkbUint } from './ckb/uint.js';
export { AsertSchedule } from './demo/asert.js';
export {
  DEFAULT_DEMO_HASHES_PER_BLOCK,
  DEMO_BLOCK_SECONDS,
  DemoJobSource,
  type DemoValuation,
  demoTarget,
  type OpenedMerged,
  targetForNetworkDifficulty,
} from './demo/demoJobSource.js';
export {
  type BitcoinJob,
  bitcoinWorkKey,
  type JobSource,
  type SubmitBlockResult,
  type WorkJob,
  type WorkSource,
} from './job.js';
export { DaemonJobSource, JobSourceConfigError } from './jobs/daemonJobSource.js';
export type { TemplateJob } from './jobs/templateJob.js';
export { ChainwebClient, ChainwebError } from './kadena/chainwebClient.js';
export {
  type ChainwebVersionName,
  hashToBase64Url,
  isChainwebVersionName,
  kadenaBlockHash,
  parseKadenaHeader,
} from './kadena/header.js';
export { kadenaBlockStatus } from './kadena/kadenaBlockStatus.js';
export { createKadenaJob, type KadenaJob } from './kadena/kadenaJob.js';
export { KadenaJobSource } from './kadena/kadenaJobSource.js';
export { payToAddressScript } from './kaspa/coinbase.js';
export { parseJsonExact } from './kaspa/json.js';
export { kaspaBlockStatus } from './kaspa/kaspaBlockStatus.js';
export { createKaspaJob, type KaspaBlockSubmission, type KaspaJob } from './kaspa/kaspaJob.js';
export { KaspaJobSource } from './kaspa/kaspaJobSource.js';
export { KaspaRpc } from './kaspa/kaspaRpc.js';
export { readBlockTemplate } from './kaspa/wire.js';
export type { ChainLogger } from './logger.js';
export { blockHashHex } from './pow.js';
export { HttpPriceSource } from './prices/httpPrices.js';
export type { PriceSource } from './prices/priceSource.js';
export { StaticPriceSource } from './prices/staticPrices.js';
export { BitcoinRpc } from './rpc/bitcoinRpc.js';
export { RpcClient } from './rpc/client.js';
export { DaemonPool } from './rpc/daemonPool.js';
export { RPC_METHOD_NOT_FOUND, RpcError } from './rpc/errors.js';
export { exactDecimalFetch, unitsToDecimal } from './wallet/amounts.js';
export { BitcoinWallet } from './wallet/bitcoinWallet.js';
export { type BlockStatus, blockStatus } from './wallet/blockStatus.js';
export { CkbWallet } from './wallet/ckb/ckbWallet.js';
export { EvmWallet } from './wallet/evm/evmWallet.js';
export { KadenaWallet } from './wallet/kadena/kadenaWallet.js';
export { KaspaWallet } from './wallet/kaspa/kaspaWallet.js';
export {
  isSigningWallet,
  type SignedTransaction,
  type SigningWallet,
  type TransactionState,
} from './wallet/signingWallet.js';
export {
  type SentTransaction,
  type Wallet,
  WalletError,
  type WalletOutput,
  type WalletTransaction,
} from './wallet/wallet.js';
