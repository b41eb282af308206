/**
 * The wallet of the dogecoind stand-in (dogecoind.ts): the node wallet a pool pays DOGE payouts from,
 * served over the same JSON-RPC as the aux calls. Its keys receive the coinbases of accepted aux blocks;
 * those coins mature, are chosen, paid out with a fee and change, and the transactions go into the next
 * block. Amounts cross the wire exactly both ways: request amounts are read from the body's own digits
 * (parseRawJson; JSON.parse would round them through doubles), answers are written digit for digit
 * (writeJson).
 *
 * Facts, from dogecoin/dogecoin as stored in the reference index (files read one by one):
 * - src/wallet/rpcwallet.cpp @ 02804796de11ff889200922bd29a911612de7051 (1.14, on Bitcoin Core 0.14):
 *   - getnewaddress ( "account" ): a new key's P2PKH address, put in the address book under the account;
 *     AccountFromValue refuses "*" with -11 "Invalid account name".
 *   - getbalance: no argument → GetBalance (unspent outputs of trusted transactions). "*" with minconf →
 *     the sum of received outputs confirmed minconf times, less everything sent and every fee, over the
 *     mature transactions not conflicted. Another account → GetAccountBalance. No getbalances (Bitcoin
 *     Core 0.19's), so it is -32601 "Method not found".
 *   - sendmany "fromaccount" {address: amount} ( minconf "comment" [subtractfeefrom] ): per key in order
 *     -5 "Invalid Dogecoin address: <key>", -8 "Invalid parameter, duplicated address: <key>", then
 *     AmountFromValue, then -3 "Invalid amount for send" for amounts ≤ 0; then -6 "Account has insufficient
 *     funds" when the total exceeds the account's balance at minconf; then CreateTransaction's reason as -6.
 *     The comment is kept with the transaction (mapValue "comment") unless empty.
 *   - gettransaction: -5 "Invalid or non-wallet transaction id"; amount = credit − debit − fee, fee only
 *     when the wallet paid (negative), WalletTxToJSON's fields, details from ListTransactions (no long
 *     fields), hex.
 *   - listtransactions ( "account" count skip ): entries collected newest transaction first, cut to
 *     [skip, skip + count), then reversed ("Return oldest to newest": so a transaction's own entries come
 *     out in reverse output order); -8 "Negative count" / "Negative from". Coinbase entries are 'orphan'
 *     below one confirmation, 'immature' while blocks to maturity remain, 'generate' after.
 * - src/rpc/server.cpp AmountFromValue (dogecoin @ 0f14aa30e2ddff8555d3beadba9d8e5bf0e59ffb, the same text
 *   as Bitcoin Core 0.14's): -3 "Amount is not a number or string", -3 "Invalid amount" when
 *   ParseFixedPoint(text, 8) fails (a non-zero digit past the 8th decimal, or a value of 10^18 units or
 *   more), -3 "Amount out of range" outside MoneyRange (negative, or above MAX_MONEY: 10,000,000,000 DOGE
 *   in 1.14's amount.h). ValueFromAmount writes "%s%d.%08d": always eight decimals.
 * - src/wallet/wallet.cpp @ 02804796de11ff889200922bd29a911612de7051:
 *   - payTxFee(DEFAULT_TRANSACTION_FEE) and minTxFee(DEFAULT_TRANSACTION_MINFEE), both
 *     RECOMMENDED_MIN_TX_FEE (src/wallet/wallet.h @ 03848cf53dad89e35cc2b727df7eb2d0460cdd21), which is
 *     COIN / 100 = 0.01 DOGE per 1000 bytes (src/policy/policy.h @ 19c4ff8cb9eb157efa916cf0c8fda86923a032f0;
 *     1.14.0–1.14.3 charged 1 DOGE/kB). CFeeRate::GetFee is proportional, rate × bytes / 1000, at least 1
 *     (src/amount.cpp @ 02d06c7d224cff7fb9552e2222d103c371945ed1): no rounding up to whole kilobytes.
 *   - CWallet::discardThreshold = DEFAULT_DISCARD_THRESHOLD = COIN / 100 (1.14.6): a recipient below it is
 *     refused ("Transaction amount too small"); change below it is given to the fee.
 *   - CreateTransaction: start with no fee; select coins for amounts + fee; change to a new key not in
 *     the address book; size the transaction with dummy signatures (72-byte signatures: src/script/sign.cpp
 *     DummySignatureCreator); fee needed = GetMinimumFee = max(payTxFee, minTxFee, relay fee) for that
 *     size; take it from the change if the change stays ≥ the discard threshold, else select again with
 *     the fee added. nLockTime = the tip's height (anti fee sniping, when the tip is under 8 hours old;
 *     Dogecoin sometimes goes up to 100 blocks back at random, the stand-in does not); nSequence
 *     0xfffffffe (no RBF by default). Dogecoin puts the change at a random position; the stand-in puts it
 *     last. "Insufficient funds" when no coins cover the target.
 *   - SelectCoins: AvailableCoins(only trusted) then SelectCoinsMinConf(1, 6), (1, 1), then (0, 1) for
 *     unconfirmed change of our own; each pass: a coin of exactly the target, else all coins below
 *     target + MIN_CHANGE (discardThreshold + 2 × minTxFee per kB) if they add up to it exactly, else the
 *     smallest larger coin when the smaller ones fall short, else a subset of the smaller ones, unless the
 *     smallest larger coin is closer. The subset search is randomised in Dogecoin; the stand-in runs its
 *     second, deterministic pass only (coins largest first).
 *   - GetAmounts / IsChange / GetAccountAmounts / IsTrusted / GetBalance / GetCredit (0 for an immature
 *     coinbase) / GetAvailableCredit as the methods below say.
 * - src/auxpow.cpp CMerkleTx::GetBlocksToMaturity: coinbase maturity + 1 − depth, so a coinbase is
 *   spendable at maturity + 1 confirmations. src/chainparams.cpp: regtest nCoinbaseMaturity = 60 ("For
 *   easier testability in RPC tests"), mainnet 240 since Digishield.
 * - src/primitives/transaction.h @ 093f1abf40ebd983f61321cc50ff850431262a1f: CURRENT_VERSION = 1
 *   ("Temporarily restricted to v1 for compatibility with 1.10"); the legacy serialization.
 *
 * Not modelled: accounts' `move`, watch-only, subtractfeefrom (refused with -8 rather than ignored),
 * locked wallets, conflicts and abandoning (the stand-in's chain never reorganises its main chain).
 * The stand-in holds no private keys: its inputs carry placeholders the size of a signature, so the
 * serialization, its size, the fee and the txid are real while the signatures are not.
 */
import { createHash } from 'node:crypto';
import { base58CheckDecode, base58CheckEncode, p2pkhScript, p2shScript } from '../bitcoin/address.js';
import { sha256d } from '../bitcoin/hash.js';
import { encodeVarInt, pushData } from '../bitcoin/serialize.js';

const COIN = 100_000_000n;
/** MAX_MONEY of Dogecoin 1.14 (amount.h): 10,000,000,000 DOGE. */
const MAX_MONEY = 10_000_000_000n * COIN;
/** ParseFixedPoint's bound: 10^18 − 1 units. */
const FIXED_POINT_LIMIT = 10n ** 18n - 1n;
/** RECOMMENDED_MIN_TX_FEE: payTxFee, minTxFee and the discard threshold all derive from it. */
const RECOMMENDED_MIN_TX_FEE = COIN / 100n;
/**
 * DEFAULT_MIN_RELAY_TX_FEE = RECOMMENDED_MIN_TX_FEE / 10 (validation.h, as quoted from dogecoin master by
 * files in the index; not read at a commit). Below payTxFee, so it only matters as payTxFee's floor.
 */
const MIN_RELAY_TX_FEE = RECOMMENDED_MIN_TX_FEE / 10n;
const DISCARD_THRESHOLD = RECOMMENDED_MIN_TX_FEE;
/** MIN_CHANGE_FEE_MULTIPLIER (wallet.h). */
const MIN_CHANGE_FEE_MULTIPLIER = 2n;
/** MAX_STANDARD_TX_WEIGHT (policy.h); a legacy transaction weighs 4 per byte. */
const MAX_STANDARD_TX_WEIGHT = 400_000;
const SEQUENCE_NO_RBF = 0xfffffffe;
/** IsCurrentForAntiFeeSniping: the tip must be younger than this for nLockTime = height. */
const MAX_ANTI_FEE_SNIPING_TIP_AGE = 8 * 60 * 60;
const PREFIXES = { regtest: { p2pkh: 111, p2sh: 196 }, mainnet: { p2pkh: 30, p2sh: 22 } } as const;

// ---------------------------------------------------------------------------------------------
// JSON-RPC errors and parameters, as UniValue's getters and the RPC table refuse them

/** A JSON-RPC error as dogecoind sends it. */
export class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function arity(params: unknown[], min: number, max: number, usage: string): void {
  // The real answer is the whole help text; its first line is kept here.
  if (params.length < min || params.length > max) throw new RpcFault(-1, usage);
}

export function str(value: unknown): string {
  if (typeof value !== 'string') throw new RpcFault(-1, 'JSON value is not a string as expected');
  return value;
}

export function int(value: unknown): number {
  if (typeof value !== 'number') throw new RpcFault(-1, 'JSON value is not an integer as expected');
  if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) {
    throw new RpcFault(-1, 'JSON integer out of range');
  }
  return value;
}

export function bool(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new RpcFault(-1, 'JSON value is not a boolean as expected');
  return value;
}

function array(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new RpcFault(-1, 'JSON value is not an array as expected');
  return value;
}

/** AccountFromValue: a string, and not "*". */
function accountFromValue(value: unknown): string {
  const account = str(value);
  if (account === '*') throw new RpcFault(-11, 'Invalid account name');
  return account;
}

// ---------------------------------------------------------------------------------------------
// Exact JSON: number literals kept as their text, in requests and in answers

/** A JSON number literal, digit for digit. */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** A JSON object with its keys in order and duplicates kept, as UniValue holds one. */
export class RawObject {
  constructor(readonly entries: [string, RawJson][]) {}

  /** find_value: the first entry with the key. */
  get(key: string): RawJson | undefined {
    return this.entries.find(([k]) => k === key)?.[1];
  }
}

export type RawJson = null | boolean | string | RawNumber | RawObject | RawJson[];

/** Parses JSON text keeping number literals' text; throws SyntaxError on what JSON.parse refuses. */
export function parseRawJson(text: string): RawJson {
  JSON.parse(text); // the same refusals as before; below, the text is known to be JSON
  const number = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): RawJson => {
    space();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      i++;
      const entries: [string, RawJson][] = [];
      const items: RawJson[] = [];
      space();
      if (text[i] === (c === '{' ? '}' : ']')) i++;
      else {
        for (let more = true; more; more = text[i++] === ',') {
          if (c === '{') {
            space();
            const key = string();
            space();
            i++; // ':'
            entries.push([key, value()]);
          } else {
            items.push(value());
          }
          space();
        }
      }
      return c === '{' ? new RawObject(entries) : items;
    }
    for (const [word, literal] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return literal;
      }
    }
    number.lastIndex = i;
    const match = number.exec(text) as RegExpExecArray;
    i = number.lastIndex;
    return new RawNumber(match[0]);
  };
  return value();
}

/** The value JSON.parse would give, except that a duplicated key keeps its first value (find_value). */
export function plainOf(value: RawJson): unknown {
  if (value instanceof RawNumber) return Number(value.text);
  if (value instanceof RawObject) {
    const firsts = value.entries.filter(([key], index) => value.entries.findIndex(([k]) => k === key) === index);
    return Object.fromEntries(firsts.map(([key, v]) => [key, plainOf(v)]));
  }
  if (Array.isArray(value)) return value.map(plainOf);
  return value;
}

/** JSON text of an answer; RawNumber and RawObject are written as they are, undefined fields left out. */
export function writeJson(value: unknown): string {
  if (value instanceof RawNumber) return value.text;
  const object = (entries: [string, unknown][]) =>
    `{${entries
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${writeJson(v)}`)
      .join(',')}}`;
  if (value instanceof RawObject) return object(value.entries);
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return object(Object.entries(value));
  return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------------------------------------
// Amounts

/** ValueFromAmount: whole coins with exactly eight decimals, as a number literal. */
function amountJson(units: bigint): RawNumber {
  const abs = units < 0n ? -units : units;
  return new RawNumber(`${units < 0n ? '-' : ''}${abs / COIN}.${(abs % COIN).toString().padStart(8, '0')}`);
}

/** AmountFromValue on a request value (the literal's own text, or a string). */
function amountFromValue(value: RawJson): bigint {
  let text: string;
  if (value instanceof RawNumber) text = value.text;
  else if (typeof value === 'string') text = value;
  else throw new RpcFault(-3, 'Amount is not a number or string');
  const units = parseFixedPoint(text);
  if (units === undefined) throw new RpcFault(-3, 'Invalid amount');
  if (units < 0n || units > MAX_MONEY) throw new RpcFault(-3, 'Amount out of range');
  return units;
}

/**
 * ParseFixedPoint(text, 8) as a bigint: a JSON number whose value, in units of 10^-8, is a whole number
 * whose digits fit under 10^18. Trailing zeros count for nothing ("1.000000000" is fine, "1.000000001"
 * is not), and an exponent is allowed.
 */
function parseFixedPoint(text: string): bigint | undefined {
  const m = /^(-)?(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, minus, whole = '', fraction = '', expSign, expDigits] = m;
  const digits = `${whole === '0' ? '' : whole}${fraction}`;
  const significant = digits.replace(/0+$/, '');
  const mantissa = BigInt(significant === '' ? '0' : significant);
  if (mantissa > FIXED_POINT_LIMIT) return undefined;
  const written = expDigits === undefined ? 0n : BigInt(expDigits) * (expSign === '-' ? -1n : 1n);
  const exponent = written - BigInt(fraction.length) + BigInt(digits.length - significant.length) + 8n;
  if (exponent < 0n || exponent >= 18n) return undefined;
  const units = mantissa * 10n ** exponent;
  if (units > FIXED_POINT_LIMIT) return undefined;
  return minus ? -units : units;
}

/** CFeeRate::GetFee: proportional to the size, never 0 for a positive rate. */
function feeFor(ratePerKb: bigint, bytes: number): bigint {
  const fee = (ratePerKb * BigInt(bytes)) / 1000n;
  return fee === 0n && bytes > 0 && ratePerKb > 0n ? 1n : fee;
}

// ---------------------------------------------------------------------------------------------
// Addresses and scripts

export type Network = keyof typeof PREFIXES;

/** CBitcoinAddress::IsValid + GetScriptForDestination: Base58Check, 20 bytes, the network's P2PKH or P2SH. */
export function addressScript(address: string, network: Network): Buffer | undefined {
  let payload: Buffer;
  try {
    payload = base58CheckDecode(address);
  } catch {
    return undefined;
  }
  if (payload.length !== 21) return undefined;
  const prefixes = PREFIXES[network];
  if (payload[0] === prefixes.p2pkh) return p2pkhScript(payload.subarray(1));
  if (payload[0] === prefixes.p2sh) return p2shScript(payload.subarray(1));
  return undefined;
}

export function p2pkhAddress(hash: Uint8Array, network: Network): string {
  return base58CheckEncode(Buffer.concat([Buffer.from([PREFIXES[network].p2pkh]), hash]));
}

export function hash160(data: Uint8Array): Buffer {
  return createHash('ripemd160').update(createHash('sha256').update(data).digest()).digest();
}

/** ExtractDestination: P2PKH, P2SH, or a bare public key (its key hash), as an address. */
function destinationOf(script: Buffer, network: Network): string | undefined {
  if (script.length === 25 && script.subarray(0, 3).equals(P2PKH_HEAD) && script.readUInt16BE(23) === 0x88ac) {
    return p2pkhAddress(script.subarray(3, 23), network);
  }
  if (script.length === 23 && script[0] === 0xa9 && script[1] === 20 && script[22] === 0x87) {
    return base58CheckEncode(Buffer.concat([Buffer.from([PREFIXES[network].p2sh]), script.subarray(2, 22)]));
  }
  const pubkey = p2pkPubkey(script);
  return pubkey === undefined ? undefined : p2pkhAddress(hash160(pubkey), network);
}

const P2PKH_HEAD = Buffer.from([0x76, 0xa9, 20]);

/** The key of <33-byte pubkey> OP_CHECKSIG (what getauxblock's coinbase pays). */
function p2pkPubkey(script: Buffer): Buffer | undefined {
  return script.length === 35 && script[0] === 33 && script[34] === 0xac ? script.subarray(1, 34) : undefined;
}

/**
 * A placeholder of a DER signature's length with its sighash byte (72 bytes: the size the wallet's
 * own estimate assumes). The stand-in has no private keys to sign with.
 */
function placeholderSignature(): Buffer {
  const sig = Buffer.alloc(72);
  sig.set([0x30, 69, 0x02, 33], 0);
  sig.set([0x02, 32], 37);
  sig[71] = 0x01; // SIGHASH_ALL
  return sig;
}

// ---------------------------------------------------------------------------------------------
// The wallet

/** What the wallet reads of the chain it follows. */
export interface WalletChain {
  tip(): { height: number; time: number };
  /** Height and time of a block on the main chain; undefined beside it or unknown. */
  onMainChain(hash: string): { height: number; time: number } | undefined;
}

export interface AuxWalletOptions {
  /** Seeds the keys, so two coins' stand-ins never share an address. */
  coin: string;
  network: Network;
  /** Blocks a coinbase waits before it can be spent: spendable at maturity + 1 confirmations. */
  coinbaseMaturity: number;
  /** -paytxfee in koinu per 1000 bytes; RECOMMENDED_MIN_TX_FEE (0.01 DOGE) by default. */
  payTxFee?: bigint;
  now: () => number;
  chain: WalletChain;
}

/** A block that became the tip, as the wallet needs it. */
export interface ConnectedBlock {
  hash: string;
  time: number;
  coinbase: { txid: string; raw: Buffer; script: Buffer; value: bigint };
  /** RPC txids of the block's other transactions, in block order. */
  txids: string[];
}

/** A wallet transaction waiting for a block. */
export interface PendingTx {
  /** RPC hex. */
  txid: string;
  raw: Buffer;
  fee: bigint;
}

export interface Payment {
  txid: string;
  /** The outputs paid, change left out. */
  outputs: { address: string; amount: bigint }[];
  fee: bigint;
  comment?: string;
  confirmations: number;
}

interface Key {
  pubkey: Buffer;
  hash: Buffer;
  address: string;
  /** The address-book name; undefined for keys not in the address book (change, mining). */
  account: string | undefined;
}

interface Output {
  script: Buffer;
  value: bigint;
}

interface WalletTx {
  /** RPC hex. */
  txid: string;
  raw: Buffer;
  coinbase: boolean;
  /** The wallet outputs it spends. */
  spends: { txid: string; vout: number; value: bigint }[];
  outputs: Output[];
  /** The main-chain block that holds it. */
  block: { hash: string; index: number } | undefined;
  time: number;
  timeReceived: number;
  comment: string | undefined;
  fromAccount: string;
}

interface Entry {
  address: string | undefined;
  amount: bigint;
  vout: number;
  key: Key | undefined;
}

interface Coin {
  tx: WalletTx;
  vout: number;
  value: bigint;
  depth: number;
  fromMe: boolean;
}

type Method = (params: unknown[], raw: RawJson[]) => unknown;

export class AuxWallet {
  /** The wallet's RPC methods by name. */
  readonly methods: Readonly<Record<string, Method>>;

  private readonly options: AuxWalletOptions;
  private readonly payTxFee: bigint;
  private readonly minTxFee: bigint;
  private readonly keysByHash = new Map<string, Key>();
  private keyCount = 0;
  private miningKey: Key | undefined;
  /** In wtxOrdered order (nOrderPos): the order they entered the wallet. */
  private readonly txs: WalletTx[] = [];
  private readonly byTxid = new Map<string, WalletTx>();
  private readonly spent = new Set<string>();

  constructor(options: AuxWalletOptions) {
    this.options = options;
    this.payTxFee = options.payTxFee ?? RECOMMENDED_MIN_TX_FEE;
    if (this.payTxFee < MIN_RELAY_TX_FEE) {
      // CWallet::ParameterInteraction refuses a -paytxfee below the relay fee at start.
      throw new RangeError(`payTxFee must be at least the relay fee, ${MIN_RELAY_TX_FEE} koinu per kB`);
    }
    // ParameterInteraction: a -paytxfee below the default minTxFee lowers minTxFee to it.
    this.minTxFee = this.payTxFee < RECOMMENDED_MIN_TX_FEE ? this.payTxFee : RECOMMENDED_MIN_TX_FEE;
    this.methods = {
      getnewaddress: (params) => this.getnewaddress(params),
      getbalance: (params) => this.getbalance(params),
      sendmany: (params, raw) => this.sendmany(params, raw),
      gettransaction: (params) => this.gettransaction(params),
      listtransactions: (params) => this.listtransactions(params),
    };
  }

  /** A new receiving address in the address book under `account` (getnewaddress). */
  newAddress(account = ''): string {
    return this.newKey(account).address;
  }

  /** The key of a wallet address, for validateaddress. */
  keyOf(address: string): { pubkey: Buffer; account: string | undefined } | undefined {
    const script = addressScript(address, this.options.network);
    const key = script === undefined ? undefined : this.keyOfScript(script);
    return key && { pubkey: key.pubkey, account: key.account };
  }

  /** getauxblock's payout: the reserved key as <pubkey> OP_CHECKSIG (ScriptForMining), kept until used. */
  miningScript(): { script: Buffer; address: string } {
    this.miningKey ??= this.newKey(undefined);
    return {
      script: Buffer.concat([pushData(this.miningKey.pubkey), Buffer.from([0xac])]),
      address: this.miningKey.address,
    };
  }

  /** CReserveScript::KeepScript: a block paid to the mining key was accepted; the next gets a new key. */
  keepMiningKey(): void {
    this.miningKey = undefined;
  }

  /** SyncTransaction for a block that became the tip: its coinbase if it pays us, our transactions in it. */
  blockConnected(block: ConnectedBlock): void {
    const { coinbase } = block;
    if (this.keyOfScript(coinbase.script) !== undefined) {
      this.add({
        txid: coinbase.txid,
        raw: coinbase.raw,
        coinbase: true,
        spends: [],
        outputs: [{ script: coinbase.script, value: coinbase.value }],
        block: { hash: block.hash, index: 0 },
        time: this.smartTime(block.time),
        timeReceived: this.options.now(),
        comment: undefined,
        fromAccount: '',
      });
    }
    block.txids.forEach((txid, i) => {
      const tx = this.byTxid.get(txid);
      if (tx !== undefined && tx.block === undefined) tx.block = { hash: block.hash, index: i + 1 };
    });
  }

  /** Our transactions not yet in a main-chain block, oldest first: what the next block carries. */
  mempool(): PendingTx[] {
    return this.txs
      .filter((tx) => tx.block === undefined && !tx.coinbase)
      .map((tx) => ({ txid: tx.txid, raw: tx.raw, fee: this.debit(tx) - valueOut(tx) }));
  }

  /** Every transaction the wallet paid, oldest first. */
  payments(): Payment[] {
    return this.txs
      .filter((tx) => this.debit(tx) > 0n)
      .map((tx) => {
        const { sent, fee } = this.amounts(tx);
        return {
          txid: tx.txid,
          outputs: sent.map((s) => ({ address: s.address ?? '', amount: s.amount })),
          fee,
          ...(tx.comment !== undefined && { comment: tx.comment }),
          confirmations: this.depth(tx),
        };
      });
  }

  // -------------------------------------------------------------------------------------------
  // RPC methods

  private getnewaddress(params: unknown[]): string {
    arity(params, 0, 1, 'getnewaddress ( "account" )');
    // The account is read first so that a refused one takes no key.
    const account = params.length > 0 ? accountFromValue(params[0]) : '';
    return this.newAddress(account);
  }

  private getbalance(params: unknown[]): RawNumber {
    arity(params, 0, 3, 'getbalance ( "account" minconf include_watchonly )');
    if (params.length === 0) return amountJson(this.trustedBalance());
    const minconf = params.length > 1 ? int(params[1]) : 1;
    if (params.length > 2) bool(params[2]); // watch-only: the stand-in has none
    if (str(params[0]) === '*') return amountJson(this.ledgerBalance(minconf));
    return amountJson(this.accountBalance(accountFromValue(params[0]), minconf));
  }

  private sendmany(params: unknown[], raw: RawJson[]): string {
    arity(params, 2, 5, 'sendmany "fromaccount" {"address":amount,...} ( minconf "comment" ["address",...] )');
    const account = accountFromValue(params[0]);
    const sendTo = raw[1];
    if (!(sendTo instanceof RawObject)) throw new RpcFault(-1, 'JSON value is not an object as expected');
    const minconf = params.length > 2 ? int(params[2]) : 1;
    const comment = params.length > 3 && params[3] !== null ? str(params[3]) : '';
    if (params.length > 4 && array(params[4]).length > 0) {
      throw new RpcFault(-8, 'subtractfeefrom is not served by the stand-in');
    }
    const recipients: Output[] = [];
    const seen = new Set<string>();
    let total = 0n;
    for (const [address, value] of sendTo.entries) {
      const script = addressScript(address, this.options.network);
      if (script === undefined) throw new RpcFault(-5, `Invalid Dogecoin address: ${address}`);
      if (seen.has(address)) throw new RpcFault(-8, `Invalid parameter, duplicated address: ${address}`);
      seen.add(address);
      const amount = amountFromValue(value);
      if (amount <= 0n) throw new RpcFault(-3, 'Invalid amount for send');
      total += amount;
      recipients.push({ script, value: amount });
    }
    if (total > this.accountBalance(account, minconf)) throw new RpcFault(-6, 'Account has insufficient funds');
    const tx = this.createTransaction(recipients);
    tx.comment = comment === '' ? undefined : comment;
    tx.fromAccount = account;
    this.add(tx);
    for (const s of tx.spends) this.spent.add(`${s.txid}:${s.vout}`);
    return tx.txid;
  }

  private gettransaction(params: unknown[]): Record<string, unknown> {
    arity(params, 1, 2, 'gettransaction "txid" ( include_watchonly )');
    const txid = str(params[0]).toLowerCase();
    if (params.length > 1) bool(params[1]);
    const tx = this.byTxid.get(txid);
    if (tx === undefined) throw new RpcFault(-5, 'Invalid or non-wallet transaction id');
    const debit = this.debit(tx);
    const fee = debit > 0n ? valueOut(tx) - debit : 0n;
    return {
      amount: amountJson(this.credit(tx) - debit - fee),
      fee: debit > 0n ? amountJson(fee) : undefined,
      ...this.txJson(tx),
      details: this.entries(tx, '*', false),
      hex: tx.raw.toString('hex'),
    };
  }

  private listtransactions(params: unknown[]): unknown[] {
    arity(params, 0, 4, 'listtransactions ( "account" count skip include_watchonly)');
    const account = params.length > 0 ? str(params[0]) : '*';
    let count = params.length > 1 ? int(params[1]) : 10;
    let from = params.length > 2 ? int(params[2]) : 0;
    if (params.length > 3) bool(params[3]);
    if (count < 0) throw new RpcFault(-8, 'Negative count');
    if (from < 0) throw new RpcFault(-8, 'Negative from');
    const newestFirst: Record<string, unknown>[] = [];
    for (let i = this.txs.length - 1; i >= 0 && newestFirst.length < count + from; i--) {
      newestFirst.push(...this.entries(this.txs[i] as WalletTx, account, true));
    }
    from = Math.min(from, newestFirst.length);
    count = Math.min(count, newestFirst.length - from);
    return newestFirst.slice(from, from + count).reverse();
  }

  // -------------------------------------------------------------------------------------------
  // Answers' pieces

  /** WalletTxToJSON. */
  private txJson(tx: WalletTx): Record<string, unknown> {
    const depth = this.depth(tx);
    const block = depth > 0 && tx.block ? this.options.chain.onMainChain(tx.block.hash) : undefined;
    return {
      confirmations: depth,
      generated: tx.coinbase || undefined,
      ...(block && tx.block
        ? { blockhash: tx.block.hash, blockindex: tx.block.index, blocktime: block.time }
        : { trusted: this.isTrusted(tx) }),
      txid: tx.txid,
      walletconflicts: [],
      time: tx.time,
      timereceived: tx.timeReceived,
      // Confirmed, or in the mempool without signalling: "no"; not in the mempool: "unknown".
      'bip125-replaceable': depth > 0 || !tx.coinbase ? 'no' : 'unknown',
      comment: tx.comment,
    };
  }

  /** ListTransactions: the send entries, then the receive entries, of one transaction. */
  private entries(tx: WalletTx, account: string, long: boolean): Record<string, unknown>[] {
    const { sent, received, fee } = this.amounts(tx);
    const all = account === '*';
    const out: Record<string, unknown>[] = [];
    if ((sent.length > 0 || fee !== 0n) && (all || account === tx.fromAccount)) {
      for (const s of sent) {
        out.push({
          account: tx.fromAccount,
          address: s.address,
          category: 'send',
          amount: amountJson(-s.amount),
          label: s.key?.account,
          vout: s.vout,
          fee: amountJson(-fee),
          ...(long && this.txJson(tx)),
          abandoned: false,
        });
      }
    }
    const depth = this.depth(tx);
    if (received.length > 0 && depth >= 0) {
      for (const r of received) {
        const name = r.key?.account ?? '';
        if (!all && name !== account) continue;
        let category = 'receive';
        if (tx.coinbase) category = depth < 1 ? 'orphan' : this.blocksToMaturity(tx) > 0 ? 'immature' : 'generate';
        out.push({
          account: name,
          address: r.address,
          category,
          amount: amountJson(r.amount),
          label: r.key?.account,
          vout: r.vout,
          ...(long && this.txJson(tx)),
        });
      }
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Sending

  /** CreateTransaction for recipients that passed sendmany's checks; refusals are -6 with its reasons. */
  private createTransaction(recipients: Output[]): WalletTx {
    const refuse = (reason: string): never => {
      throw new RpcFault(-6, reason);
    };
    if (recipients.length === 0) refuse('Transaction must have at least one recipient');
    if (recipients.some((r) => r.value < DISCARD_THRESHOLD)) refuse('Transaction amount too small');
    const total = recipients.reduce((sum, r) => sum + r.value, 0n);
    const coins = this.availableCoins();
    const lockTime = this.lockTime();
    let fee = 0n;
    for (;;) {
      const target = total + fee;
      const chosen = this.selectCoins(coins, target) ?? refuse('Insufficient funds');
      const change = chosen.reduce((sum, c) => sum + c.value, 0n) - target;
      let changeValue: bigint | undefined;
      if (change >= DISCARD_THRESHOLD) changeValue = change;
      else fee += change; // never change under the discard threshold: it goes to the fee
      // A change script has a P2PKH's size whichever key it gets.
      const outputs = changeValue === undefined ? recipients : [...recipients, { script: CHANGE_SIZED, value: 0n }];
      const bytes = this.serialize(chosen, outputs, lockTime).length;
      const needed = this.minimumFee(bytes);
      let done = false;
      if (fee >= needed) {
        // Overpaid from an earlier round: the excess goes back to the change.
        if (fee > needed && changeValue !== undefined) {
          changeValue += fee - needed;
          fee = needed;
        }
        done = true;
      } else if (changeValue !== undefined && changeValue >= DISCARD_THRESHOLD + (needed - fee)) {
        changeValue -= needed - fee;
        fee = needed;
        done = true;
      }
      if (done) {
        const paid =
          changeValue === undefined ? recipients : [...recipients, { script: this.changeScript(), value: changeValue }];
        const raw = this.serialize(chosen, paid, lockTime);
        if (raw.length * 4 >= MAX_STANDARD_TX_WEIGHT) refuse('Transaction too large');
        const now = this.options.now();
        return {
          txid: Buffer.from(sha256d(raw)).reverse().toString('hex'),
          raw,
          coinbase: false,
          spends: chosen.map((c) => ({ txid: c.tx.txid, vout: c.vout, value: c.value })),
          outputs: paid,
          block: undefined,
          time: now,
          timeReceived: now,
          comment: undefined,
          fromAccount: '',
        };
      }
      fee = needed;
    }
  }

  /** GetMinimumFee with -paytxfee's default set: max(payTxFee, minTxFee, relay fee) for the size. */
  private minimumFee(bytes: number): bigint {
    return [this.payTxFee, this.minTxFee, MIN_RELAY_TX_FEE]
      .map((rate) => feeFor(rate, bytes))
      .reduce((a, b) => (a > b ? a : b));
  }

  /** GetLocktimeForNewTransaction without the random step back. */
  private lockTime(): number {
    const tip = this.options.chain.tip();
    return tip.time >= this.options.now() - MAX_ANTI_FEE_SNIPING_TIP_AGE ? tip.height : 0;
  }

  /** A legacy serialization: version 1, inputs with signature-sized placeholders, outputs, nLockTime. */
  private serialize(inputs: Coin[], outputs: Output[], lockTime: number): Buffer {
    const parts: Buffer[] = [u32(1), encodeVarInt(inputs.length)];
    for (const coin of inputs) {
      const script = coin.tx.outputs[coin.vout]?.script as Buffer;
      const key = this.keyOfScript(script) as Key;
      // P2PK: <sig>; P2PKH: <sig> <pubkey>.
      const scriptSig = p2pkPubkey(script)
        ? pushData(placeholderSignature())
        : Buffer.concat([pushData(placeholderSignature()), pushData(key.pubkey)]);
      parts.push(Buffer.from(coin.tx.txid, 'hex').reverse(), u32(coin.vout), encodeVarInt(scriptSig.length));
      parts.push(scriptSig, u32(SEQUENCE_NO_RBF));
    }
    parts.push(encodeVarInt(outputs.length));
    for (const output of outputs) {
      const value = Buffer.alloc(8);
      value.writeBigUInt64LE(output.value);
      parts.push(value, encodeVarInt(output.script.length), output.script);
    }
    parts.push(u32(lockTime));
    return Buffer.concat(parts);
  }

  /** A new key not in the address book, as change always gets (CReserveKey). */
  private changeScript(): Buffer {
    return p2pkhScript(this.newKey(undefined).hash);
  }

  /** AvailableCoins(fOnlyConfirmed): our unspent outputs of trusted transactions, coinbases once mature. */
  private availableCoins(): Coin[] {
    const coins: Coin[] = [];
    for (const tx of this.txs) {
      if (!this.isTrusted(tx) || this.blocksToMaturity(tx) > 0) continue;
      const depth = this.depth(tx);
      tx.outputs.forEach((output, vout) => {
        if (output.value <= 0n || this.spent.has(`${tx.txid}:${vout}`)) return;
        if (this.keyOfScript(output.script) === undefined) return;
        coins.push({ tx, vout, value: output.value, depth, fromMe: this.debit(tx) > 0n });
      });
    }
    return coins;
  }

  /** SelectCoins: confirmed coins first (ours at 1, others' at 6 confirmations), then 1, then our change. */
  private selectCoins(coins: Coin[], target: bigint): Coin[] | undefined {
    for (const [mine, theirs] of [
      [1, 6],
      [1, 1],
      [0, 1],
    ] as const) {
      const eligible = coins.filter((c) => c.depth >= (c.fromMe ? mine : theirs));
      const chosen = this.selectMinConf(eligible, target);
      if (chosen) return chosen;
    }
    return undefined;
  }

  /** SelectCoinsMinConf with a deterministic subset search in place of Dogecoin's random one. */
  private selectMinConf(coins: Coin[], target: bigint): Coin[] | undefined {
    const minChange = DISCARD_THRESHOLD + this.minTxFee * MIN_CHANGE_FEE_MULTIPLIER;
    const lower: Coin[] = [];
    let lowestLarger: Coin | undefined;
    for (const coin of coins) {
      if (coin.value === target) return [coin];
      if (coin.value < target + minChange) lower.push(coin);
      else if (lowestLarger === undefined || coin.value < lowestLarger.value) lowestLarger = coin;
    }
    const totalLower = lower.reduce((sum, c) => sum + c.value, 0n);
    if (totalLower === target) return lower;
    if (totalLower < target) return lowestLarger && [lowestLarger];
    lower.sort((a, b) => (a.value < b.value ? 1 : a.value > b.value ? -1 : 0));
    let best = subsetAtLeast(lower, target);
    if (best.total !== target && totalLower >= target + minChange) best = subsetAtLeast(lower, target + minChange);
    // The smallest larger coin, when the subset is no exact match and leaves too little change, or is no closer.
    const poorSubset = best.total !== target && best.total < target + minChange;
    if (lowestLarger !== undefined && (poorSubset || lowestLarger.value <= best.total)) return [lowestLarger];
    return best.coins;
  }

  // -------------------------------------------------------------------------------------------
  // Balances

  /** GetBalance: the unspent outputs of trusted transactions (immature coinbases count nothing). */
  private trustedBalance(): bigint {
    let total = 0n;
    for (const tx of this.txs) if (this.isTrusted(tx)) total += this.availableCredit(tx);
    return total;
  }

  /** getbalance "*" minconf: received at minconf, less all sent and all fees, over mature transactions. */
  private ledgerBalance(minconf: number): bigint {
    let total = 0n;
    for (const tx of this.txs) {
      const depth = this.depth(tx);
      if (this.blocksToMaturity(tx) > 0 || depth < 0) continue;
      const { sent, received, fee } = this.amounts(tx);
      if (depth >= minconf) for (const r of received) total += r.amount;
      for (const s of sent) total -= s.amount;
      total -= fee;
    }
    return total;
  }

  /** GetAccountBalance with GetAccountAmounts: receipts to the account's addresses (or to keys outside the book for ""). */
  private accountBalance(account: string, minconf: number): bigint {
    let total = 0n;
    for (const tx of this.txs) {
      const depth = this.depth(tx);
      if (this.blocksToMaturity(tx) > 0 || depth < 0) continue;
      const { sent, received, fee } = this.amounts(tx);
      let receivedHere = 0n;
      for (const r of received) if ((r.key?.account ?? '') === account) receivedHere += r.amount;
      if (receivedHere !== 0n && depth >= minconf) total += receivedHere;
      if (tx.fromAccount === account) {
        for (const s of sent) total -= s.amount;
        total -= fee;
      }
    }
    return total;
  }

  // -------------------------------------------------------------------------------------------
  // One transaction's standing

  /** GetDepthInMainChain: confirmations, 0 in the mempool (or a coinbase whose block left the chain). */
  private depth(tx: WalletTx): number {
    if (tx.block === undefined) return 0;
    const block = this.options.chain.onMainChain(tx.block.hash);
    return block === undefined ? 0 : this.options.chain.tip().height - block.height + 1;
  }

  private blocksToMaturity(tx: WalletTx): number {
    return tx.coinbase ? Math.max(0, this.options.coinbaseMaturity + 1 - this.depth(tx)) : 0;
  }

  /** IsTrusted: confirmed, or ours in the mempool spending only our own outputs (all the stand-in makes). */
  private isTrusted(tx: WalletTx): boolean {
    const depth = this.depth(tx);
    if (depth >= 1) return true;
    return depth === 0 && !tx.coinbase && this.debit(tx) > 0n;
  }

  private debit(tx: WalletTx): bigint {
    return tx.spends.reduce((sum, s) => sum + s.value, 0n);
  }

  /** GetCredit: every output to us, nothing for an immature coinbase. */
  private credit(tx: WalletTx): bigint {
    if (this.blocksToMaturity(tx) > 0) return 0n;
    return tx.outputs.reduce((sum, o) => sum + (this.keyOfScript(o.script) ? o.value : 0n), 0n);
  }

  private availableCredit(tx: WalletTx): bigint {
    if (this.blocksToMaturity(tx) > 0) return 0n;
    return tx.outputs.reduce(
      (sum, o, vout) => sum + (this.keyOfScript(o.script) && !this.spent.has(`${tx.txid}:${vout}`) ? o.value : 0n),
      0n,
    );
  }

  /**
   * GetAmounts: for a transaction we paid, every output but change is "sent" (outputs to our own
   * address-book addresses too) and the fee is debit − outputs; outputs to us are "received".
   */
  private amounts(tx: WalletTx): { sent: Entry[]; received: Entry[]; fee: bigint } {
    const debit = this.debit(tx);
    const sent: Entry[] = [];
    const received: Entry[] = [];
    tx.outputs.forEach((output, vout) => {
      const key = this.keyOfScript(output.script);
      // IsChange: ours and not in the address book.
      if (debit > 0n && key !== undefined && key.account === undefined) return;
      if (debit === 0n && key === undefined) return;
      const entry = { address: destinationOf(output.script, this.options.network), amount: output.value, vout, key };
      if (debit > 0n) sent.push(entry);
      if (key !== undefined) received.push(entry);
    });
    return { sent, received, fee: debit > 0n ? debit - valueOut(tx) : 0n };
  }

  // -------------------------------------------------------------------------------------------
  // Keys and bookkeeping

  /** A key of the stand-in's own making: a compressed-form public key from a counter and the coin. */
  private newKey(account: string | undefined): Key {
    const seed = sha256d(Buffer.from(`${this.options.coin} stand-in wallet key ${this.keyCount++}`));
    const pubkey = Buffer.concat([Buffer.from([0x02]), seed]);
    const hash = hash160(pubkey);
    const key = { pubkey, hash, address: p2pkhAddress(hash, this.options.network), account };
    this.keysByHash.set(hash.toString('hex'), key);
    return key;
  }

  /** IsMine for the scripts the stand-in's keys can be paid with: P2PKH and bare public key. */
  private keyOfScript(script: Buffer): Key | undefined {
    if (script.length === 25 && script.subarray(0, 3).equals(P2PKH_HEAD) && script.readUInt16BE(23) === 0x88ac) {
      return this.keysByHash.get(script.subarray(3, 23).toString('hex'));
    }
    const pubkey = p2pkPubkey(script);
    const key = pubkey && this.keysByHash.get(hash160(pubkey).toString('hex'));
    return key?.pubkey.equals(pubkey as Buffer) ? key : undefined;
  }

  private add(tx: WalletTx): void {
    this.txs.push(tx);
    this.byTxid.set(tx.txid, tx);
  }

  /** ComputeTimeSmart for a block's transaction: its block time, not before the latest entry, not after now. */
  private smartTime(blockTime: number): number {
    const now = this.options.now();
    const latest = this.txs.reduce((t, tx) => (tx.time <= now + 300 && tx.time > t ? tx.time : t), 0);
    return Math.max(latest, Math.min(blockTime, now));
  }
}

/** A P2PKH-sized script for sizing a transaction before its change key is taken. */
const CHANGE_SIZED = p2pkhScript(Buffer.alloc(20));

function valueOut(tx: WalletTx): bigint {
  return tx.outputs.reduce((sum, o) => sum + o.value, 0n);
}

function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value >>> 0);
  return out;
}

/**
 * ApproximateBestSubset's deterministic pass over coins sorted largest first: take coins in order; on
 * reaching the target, remember the total if it is the best yet, put the last coin back and go on.
 */
function subsetAtLeast(coins: Coin[], target: bigint): { coins: Coin[]; total: bigint } {
  let best = { coins: [...coins], total: coins.reduce((sum, c) => sum + c.value, 0n) };
  const taken: Coin[] = [];
  let total = 0n;
  for (const coin of coins) {
    taken.push(coin);
    total += coin.value;
    if (total >= target) {
      if (total < best.total) best = { coins: [...taken], total };
      taken.pop();
      total -= coin.value;
    }
  }
  return best;
}
