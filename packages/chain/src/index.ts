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
 *   the chainweb client, headers and block hashes, the miner reward table, block status.
 * - the bitcoin primitives they are made of, and the typed RPC client.
 */

export { PAYOUT_NETWORKS, type PayoutNetwork } from './addresses/checker.js';
export { type CkbAddressLock, decodeCkbAddress } from './addresses/ckb.js';
export { decodeKaspaAddress, type KaspaAddress } from './addresses/kaspa.js';
export {
  ADDRESS_FORMATS,
  type AddressFormat,
  type PayoutAddressCheck,
  validatePayoutAddress,
} from './addresses/validateAddress.js';
export {
  addressToScript,
  base58CheckDecode,
  base58CheckEncode,
  bech32Decode,
  bech32Encode,
  decodeSegwitAddress,
  encodeSegwitAddress,
  InvalidAddressError,
  p2pkhAddress,
  p2pkhScript,
  p2shScript,
  witnessScript,
} from './bitcoin/address.js';
export { MWEB_PRESENT, type ParsedBlock, type ParsedTransaction, parseBlock, serializeBlock } from './bitcoin/block.js';
export { bytesToHex, hashFromRpcHex, hashToRpcHex, hexToBytes, reverseBytes } from './bitcoin/bytes.js';
export {
  buildCoinbase,
  type CoinbaseOptions,
  type CoinbaseParts,
  coinbaseWithWitness,
  type TxOutput,
} from './bitcoin/coinbase.js';
export { hash160, sha256, sha256d } from './bitcoin/hash.js';
export {
  type BlockHeader,
  bitsToHex,
  HEADER_SIZE,
  notifyToPrevHash,
  parseBits,
  parseHeader,
  prevHashToNotify,
} from './bitcoin/header.js';
export { coinbaseMerkleBranch, merkleRoot, merkleRootFromBranch } from './bitcoin/merkle.js';
export { type ChainNetwork, NETWORKS, type NetworkName, networkByName } from './bitcoin/networks.js';
export { bip34HeightPush, encodeScriptNumber, encodeVarInt, pushData } from './bitcoin/serialize.js';
export {
  CKB_FINALIZATION_DELAY,
  type CkbBlockReward,
  type CkbBlockStatus,
  ckbBlockStatus,
} from './ckb/blockStatus.js';
export {
  cbmtRoot,
  extraHash,
  proposalsHash,
  type TransactionHashes,
  transactionHashes,
  transactionsRoot,
  unclesHash,
} from './ckb/hashes.js';
export { type CkbJob, type CkbJobOptions, CkbTemplateError, cellbaseLock, createCkbJob } from './ckb/job.js';
export { CkbJobSource, type CkbJobSourceOptions } from './ckb/jobSource.js';
export {
  headerHash as ckbHeaderHash,
  parseBlock as parseCkbBlock,
  parseBlockTemplate as parseCkbBlockTemplate,
  parseHeaderView as parseCkbHeaderView,
  parseTransaction as parseCkbTransaction,
} from './ckb/parse.js';
export { CKB_RPC_ERRORS, CkbRpc } from './ckb/rpc.js';
export { ckbCompactFromTarget, ckbTargetFromCompact } from './ckb/target.js';
export type {
  CkbHashType,
  CkbJsonBlock,
  CkbJsonBlockEconomicState,
  CkbJsonBlockTemplate,
  CkbJsonHeader,
  CkbJsonHeaderView,
  CkbJsonScript,
  CkbJsonTransaction,
} from './ckb/types.js';
export {
  CkbEncodingError,
  nonceFromBytes as ckbNonceFromBytes,
  nonceToBytes as ckbNonceToBytes,
  parseCkbUint,
  toCkbUint,
} from './ckb/uint.js';
export {
  BLS_SIGNATURE_SIZE,
  CBTX_KNOWN_VERSION,
  type CbTx,
  parseCbTx,
  readCbTxPrefix,
  serializeCbTx,
} from './dash/cbtx.js';
export {
  extraPayloadBytes,
  hasExtraPayload,
  SPECIAL_TX_VERSION,
  specialTxVersionField,
  splitVersionField,
  TRANSACTION_COINBASE,
  TRANSACTION_QUORUM_COMMITMENT,
} from './dash/specialTx.js';
export { DASH_TEMPLATE_DIALECT } from './dash/template.js';
export {
  DEFAULT_DEMO_HASHES_PER_BLOCK,
  DEMO_REFERENCE_DIFFICULTY,
  DemoJobSource,
  type DemoJobSourceOptions,
  type DemoValuation,
  demoPayoutAddress,
  demoTarget,
  targetForNetworkDifficulty,
} from './demo/demoJobSource.js';
export type { BitcoinJob, JobSource, SubmitBlockResult, WorkJob, WorkSource } from './job.js';
export {
  DaemonJobSource,
  type DaemonJobSourceOptions,
  defaultDialect,
  defaultRules,
  JobSourceConfigError,
} from './jobs/daemonJobSource.js';
export {
  createTemplateJob,
  DEFAULT_EXTRANONCE_SIZE,
  isHogExData,
  type TemplateJob,
  type TemplateJobOptions,
} from './jobs/templateJob.js';
export {
  ChainwebClient,
  type ChainwebClientOptions,
  ChainwebError,
  type ChainwebErrorKind,
  type CutEntry,
  type KadenaMiner,
  minerBody,
  type NodeInfo,
  type UpdateEvent,
} from './kadena/chainwebClient.js';
export {
  base64UrlToHash,
  CHAINWEB_VERSIONS,
  type ChainwebVersionName,
  encodeKadenaHeader,
  hashToBase64Url,
  isChainwebVersionName,
  KADENA_HEADER_LENGTH,
  type KadenaHeader,
  KadenaHeaderError,
  kadenaBlockHash,
  parseKadenaHeader,
  TWENTY_CHAIN_GRAPH,
} from './kadena/header.js';
export { type KadenaBlockRef, type KadenaBlockStatus, kadenaBlockStatus } from './kadena/kadenaBlockStatus.js';
export {
  createKadenaJob,
  KADENA_WORK_REPLY_LENGTH,
  type KadenaJob,
  type KadenaJobInit,
  type KadenaWork,
  parseKadenaWork,
} from './kadena/kadenaJob.js';
export {
  AllChainwebNodesFailedError,
  KadenaJobSource,
  type KadenaJobSourceOptions,
} from './kadena/kadenaJobSource.js';
export { chainCountAt, KDA_DECIMALS, kadenaBlockReward, MINER_REWARDS } from './kadena/minerRewards.js';
export {
  type CoinbasePayload,
  payToAddressScript,
  readCoinbasePayload,
  writeCoinbasePayload,
} from './kaspa/coinbase.js';
export { parseJsonExact, stringifyJsonExact } from './kaspa/json.js';
export {
  KASPA_COINBASE_MATURITY,
  type KaspaBlockStatus,
  type KaspaBlockStatusOptions,
  kaspaBlockStatus,
} from './kaspa/kaspaBlockStatus.js';
export {
  createKaspaJob,
  type KaspaBlockSubmission,
  type KaspaJob,
  type KaspaJobOptions,
  parentKey,
  toPowHeader,
} from './kaspa/kaspaJob.js';
export {
  DEFAULT_THROTTLE,
  KaspaConfigError,
  KaspaJobSource,
  type KaspaJobSourceOptions,
  type ThrottleDecision,
  type ThrottleRules,
  type ThrottleView,
  throttleDecision,
} from './kaspa/kaspaJobSource.js';
export { type KaspaNode, KaspaRpc } from './kaspa/kaspaRpc.js';
export {
  type KaspaBlock,
  type KaspaBlockTemplate,
  type KaspaBlockVerboseData,
  type KaspaDagInfo,
  type KaspaRawBlock,
  type KaspaRawHeader,
  type KaspaServerInfo,
  type KaspaSubmitReport,
  type KaspaTransaction,
  type KaspaTransactionOutput,
  readBlock,
  readBlockTemplate,
  SUBMIT_REJECT_MESSAGES,
} from './kaspa/wire.js';
export { DEFAULT_KASPA_TIMEOUT_MS, KaspaRpcClient, type KaspaRpcClientOptions } from './kaspa/wrpcClient.js';
export type { ChainLogger } from './logger.js';
export { type BitcoinAlgorithm, blockHashHex } from './pow.js';
export { DEFAULT_PRICE_TIMEOUT_MS, HttpPriceSource, type HttpPriceSourceOptions } from './prices/httpPrices.js';
export {
  type Fiat,
  PriceFeedError,
  type PriceQuote,
  type PriceSnapshot,
  type PriceSource,
  SUPPORTED_FIAT,
  USD_QUOTE,
} from './prices/priceSource.js';
export { StaticPriceSource, type StaticPriceSourceOptions } from './prices/staticPrices.js';
export {
  type AddressValidation,
  BitcoinRpc,
  type BlockchainInfo,
  type BlockTemplateRequest,
  type MiningInfo,
} from './rpc/bitcoinRpc.js';
export {
  DEFAULT_RPC_TIMEOUT_MS,
  type RpcCaller,
  type RpcCallOptions,
  RpcClient,
  type RpcClientOptions,
  redact,
} from './rpc/client.js';
export { DaemonPool } from './rpc/daemonPool.js';
export { AllDaemonsFailedError, RpcError, type RpcErrorKind } from './rpc/errors.js';
export {
  type BlockTemplate,
  COINBASE_FIELDS,
  type CoinbaseRequirements,
  parseBlockTemplate,
  type RequiredPayee,
  type TemplateDialect,
  type TemplateTransaction,
  UNDERSTOOD_RULES,
  UnsupportedTemplateError,
} from './rpc/template.js';
export {
  decimalToUnits,
  exactDecimalFetch,
  JsonDecimal,
  jsonDecimal,
  numberToUnits,
  quoteFractionalNumbers,
  rpcAmountToUnits,
  unitsToDecimal,
  writeDecimalLiterals,
} from './wallet/amounts.js';
export {
  BitcoinWallet,
  type BitcoinWalletOptions,
  DEFAULT_SEARCH_DEPTH,
  DEFAULT_WALLET_TIMEOUT_MS,
} from './wallet/bitcoinWallet.js';
export { type BlockStatus, blockStatus } from './wallet/blockStatus.js';
export {
  type SentTransaction,
  type Wallet,
  WalletError,
  type WalletErrorKind,
  type WalletOutput,
  type WalletTransaction,
} from './wallet/wallet.js';
