/**
 * Address formats of the networks the pool can pay to. Version bytes and HRPs come from each coin's
 * src/chainparams.cpp (base58Prefixes[PUBKEY_ADDRESS], [SCRIPT_ADDRESS], [SCRIPT_ADDRESS2], bech32_hrp).
 */
export interface ChainNetwork {
  /** Stable key, e.g. `litecoin-regtest`. */
  readonly name: string;
  /** Base58Check version byte(s) of P2PKH addresses. */
  readonly pubKeyHash: readonly number[];
  /** Base58Check version byte(s) of P2SH addresses (Litecoin accepts two). */
  readonly scriptHash: readonly number[];
  /** Bech32/Bech32m human-readable part of native segwit addresses, when the coin has segwit. */
  readonly bech32?: string;
}

export const NETWORKS = {
  bitcoin: { name: 'bitcoin', pubKeyHash: [0], scriptHash: [5], bech32: 'bc' },
  'bitcoin-testnet': { name: 'bitcoin-testnet', pubKeyHash: [111], scriptHash: [196], bech32: 'tb' },
  'bitcoin-regtest': { name: 'bitcoin-regtest', pubKeyHash: [111], scriptHash: [196], bech32: 'bcrt' },
  // Litecoin: SCRIPT_ADDRESS2 (50, "M...") is the current P2SH prefix; 5 ("3...") is still accepted.
  litecoin: { name: 'litecoin', pubKeyHash: [48], scriptHash: [50, 5], bech32: 'ltc' },
  'litecoin-testnet': { name: 'litecoin-testnet', pubKeyHash: [111], scriptHash: [58, 196], bech32: 'tltc' },
  'litecoin-regtest': { name: 'litecoin-regtest', pubKeyHash: [111], scriptHash: [58, 196], bech32: 'rltc' },
  dogecoin: { name: 'dogecoin', pubKeyHash: [30], scriptHash: [22] },
  'dogecoin-testnet': { name: 'dogecoin-testnet', pubKeyHash: [113], scriptHash: [196] },
  dash: { name: 'dash', pubKeyHash: [76], scriptHash: [16] },
  'dash-testnet': { name: 'dash-testnet', pubKeyHash: [140], scriptHash: [19] },
} as const satisfies Record<string, ChainNetwork>;
