import { base58CheckDecode, decodeSegwitAddress } from '../bitcoin/address.js';
import { NETWORKS } from '../bitcoin/networks.js';
import { attempt, Invalid, type PayoutNetwork } from './checker.js';

// Bitcoin family: Base58Check P2PKH / P2SH with the coin's version bytes, native segwit with its HRP.

export interface UtxoParams {
  /** Base58Check version bytes of P2PKH addresses. */
  pubKeyHash: readonly number[];
  /** Base58Check version bytes of P2SH addresses (several where the coin moved its prefix). */
  scriptHash: readonly number[];
  /** Native segwit HRP, when the coin has segwit. */
  segwit?: string;
  /**
   * Whether witness v1 (taproot) outputs are spendable on this coin: before the soft fork is active,
   * anyone can spend what is sent to them.
   */
  taproot?: boolean;
  /** Litecoin's MWEB HRPs: such addresses are recognised only to say why they are refused. */
  mweb?: readonly string[];
}

function utxo(
  network: { pubKeyHash: readonly number[]; scriptHash: readonly number[]; bech32?: string },
  extra: Omit<UtxoParams, 'pubKeyHash' | 'scriptHash' | 'segwit'> = {},
): UtxoParams {
  return { pubKeyHash: network.pubKeyHash, scriptHash: network.scriptHash, segwit: network.bech32, ...extra };
}

/**
 * Version bytes and HRPs from each coin's src/chainparams.cpp (see ../bitcoin/networks.ts for the coins
 * it already lists). Taproot is accepted where its activation on mainnet is certain (Bitcoin since
 * block 709632, Litecoin with MWEB in 2022, Bells, whose Core 3 wallet library builds p2tr outputs); on
 * DigiByte witness v1 is refused until someone confirms activation there.
 */
export const UTXO: Record<
  'bitcoin' | 'litecoin' | 'dogecoin' | 'digibyte' | 'dash' | 'bells',
  Record<PayoutNetwork, UtxoParams>
> = {
  bitcoin: {
    mainnet: utxo(NETWORKS.bitcoin, { taproot: true }),
    testnet: utxo(NETWORKS['bitcoin-testnet'], { taproot: true }),
    regtest: utxo(NETWORKS['bitcoin-regtest'], { taproot: true }),
  },
  // litecoin-project/litecoin src/chainparams.cpp: mweb_hrp "ltcmweb" on main, "tmweb" on test and
  // regtest. Both are recognised on every network: the reason to refuse is the same.
  litecoin: {
    mainnet: utxo(NETWORKS.litecoin, { taproot: true, mweb: ['ltcmweb', 'tmweb'] }),
    testnet: utxo(NETWORKS['litecoin-testnet'], { taproot: true, mweb: ['ltcmweb', 'tmweb'] }),
    regtest: utxo(NETWORKS['litecoin-regtest'], { taproot: true, mweb: ['ltcmweb', 'tmweb'] }),
  },
  // Dogecoin 1.14 has no segwit. Regtest: the 1.21 development branch uses 113 / 196 (dogecoin/dogecoin
  // src/chainparams.cpp, CRegTestParams); 111, Bitcoin's test byte, is accepted too for older regtest nodes.
  dogecoin: {
    mainnet: utxo(NETWORKS.dogecoin),
    testnet: utxo(NETWORKS['dogecoin-testnet']),
    regtest: { pubKeyHash: [113, 111], scriptHash: [196] },
  },
  // DigiByte-Core/digibyte src/chainparams.cpp: main 30 / 63 (SCRIPT_ADDRESS) and 5 (SCRIPT_ADDRESS_OLD),
  // HRP "dgb"; test and regtest 126 / 140 with HRPs "dgbt" and "dgbrt".
  digibyte: {
    mainnet: { pubKeyHash: [30], scriptHash: [63, 5], segwit: 'dgb' },
    testnet: { pubKeyHash: [126], scriptHash: [140], segwit: 'dgbt' },
    regtest: { pubKeyHash: [126], scriptHash: [140], segwit: 'dgbrt' },
  },
  // Dash has no segwit; its regtest and devnets use the testnet bytes (140 / 19).
  dash: {
    mainnet: utxo(NETWORKS.dash),
    testnet: utxo(NETWORKS['dash-testnet']),
    regtest: utxo(NETWORKS['dash-testnet']),
  },
  // Nintondo/bellscoinV3 src/kernel/chainparams.cpp: main 25 / 30 HRP "bel"; test 33 / 22 HRP "tbel";
  // regtest 111 / 196 HRP "bcrt" (Bitcoin's).
  bells: {
    mainnet: { pubKeyHash: [25], scriptHash: [30], segwit: 'bel', taproot: true },
    testnet: { pubKeyHash: [33], scriptHash: [22], segwit: 'tbel', taproot: true },
    regtest: { pubKeyHash: [111], scriptHash: [196], segwit: 'bcrt', taproot: true },
  },
};

export function checkUtxo(params: UtxoParams, address: string, what: string): void {
  const lower = address.toLowerCase();
  if (params.mweb?.some((hrp) => lower.startsWith(`${hrp}1`))) {
    throw new Invalid('MWEB addresses cannot receive payouts');
  }
  if (params.segwit !== undefined && lower.startsWith(`${params.segwit}1`)) {
    const hrp = params.segwit;
    const { version, program } = attempt(() => decodeSegwitAddress(hrp, address));
    if (version === 0) return; // 20-byte P2WPKH or 32-byte P2WSH, checked by the decoder
    if (version === 1 && program.length === 32) {
      if (params.taproot) return;
      throw new Invalid(`taproot addresses are not accepted for ${what}`);
    }
    // BIP350 asks senders to support future versions, but a payout to an output no soft fork defines
    // yet can be taken by anyone; no wallet hands such an address to a user.
    throw new Invalid(`witness version ${version} with a ${program.length}-byte program is not a spendable output yet`);
  }
  const payload = attempt(() => base58CheckDecode(address));
  if (payload.length !== 21) throw new Invalid(`wrong length: ${payload.length} bytes instead of 21`);
  const version = payload[0] as number;
  if (params.pubKeyHash.includes(version) || params.scriptHash.includes(version)) return;
  throw new Invalid(`version byte ${version} is not a ${what} address prefix`);
}
