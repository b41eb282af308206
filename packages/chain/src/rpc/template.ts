import { Shape } from './shape.js';

export interface TemplateTransaction {
  /** Serialized transaction, hex, exactly as it goes into the block. */
  data: string;
  /** Transaction id, RPC (reversed) hex. */
  txid: string;
  /** Witness hash, RPC hex, when the daemon gives one. */
  hash?: string;
  fee?: number;
}

/** A getblocktemplate reply (BIP22/23/9/145, plus Litecoin's `mweb`), checked and typed. */
export interface BlockTemplate {
  version: number;
  /** RPC hex. */
  previousBlockHash: string;
  transactions: TemplateTransaction[];
  /** Subsidy plus fees, smallest unit. */
  coinbaseValue: bigint;
  /** Compact target, 8 hex digits. */
  bits: string;
  curtime: number;
  mintime: number;
  height: number;
  rules: string[];
  longPollId?: string;
  /** scriptPubKey (hex) of the BIP141 witness commitment output, when the block must carry one. */
  defaultWitnessCommitment?: string;
  /** Concatenated `coinbaseaux` values (hex) the coinbase scriptSig must contain; usually empty. */
  coinbaseAux: string;
  /** Litecoin after MWEB activation: the serialized MWEB block (hex), without the present-marker byte. */
  mweb?: string;
  /**
   * What the coin's template dialect requires of the coinbase besides the pool's own output (Dash:
   * masternode and superblock payees, the CbTx payload); absent for plain bitcoin-family templates.
   */
  coinbase?: CoinbaseRequirements;
}

/** An output the coinbase must carry, paid out of `coinbasevalue`, as the template names it. */
export interface RequiredPayee {
  /** Which requirement this is, for messages and logs (`masternode`, `superblock`). */
  kind: string;
  /** Smallest unit. */
  value: bigint;
  /** scriptPubKey, hex. */
  script: string;
}

/** A coin's coinbase requirements, read from its template by its dialect. */
export interface CoinbaseRequirements {
  /** Outputs after the pool's own, in this order; their sum is taken out of `coinbasevalue`. */
  payees: RequiredPayee[];
  /** The coinbase's 32-bit version field as serialized, when it is not 1 (Dash DIP2: 3 | type << 16). */
  txVersion?: number;
  /** Bytes serialized after the lock time with a CompactSize length (Dash DIP2 extra payload), hex. */
  extraPayload?: string;
}

/**
 * How one coin family extends getblocktemplate. The fields it reads are refused in templates of coins
 * without the dialect, so that a plain bitcoin-family coin never mines a template whose coinbase it
 * would get wrong.
 */
export interface TemplateDialect {
  readonly name: string;
  /** The getblocktemplate fields this dialect reads. */
  readonly fields: readonly string[];
  /** Reads and checks the dialect's fields; throws UnsupportedTemplateError (or a Shape error) when they are malformed. */
  read(template: Record<string, unknown>, base: BlockTemplate, shape: Shape): CoinbaseRequirements | undefined;
}

/** Template fields that change the coinbase; a template carrying one needs the dialect that reads it. */
export const COINBASE_FIELDS = ['coinbasetxn', 'masternode', 'coinbase_payload', 'superblock'] as const;

/** A template this package cannot mine correctly (a rule or a coinbase requirement it does not know). */
export class UnsupportedTemplateError extends Error {
  override readonly name = 'UnsupportedTemplateError';
}

/**
 * Rules a miner must understand to use a template with the rule enforced (BIP9: a `!` prefix means
 * "must understand"); these are the ones whose block layout this package builds.
 */
export const UNDERSTOOD_RULES = new Set(['segwit', 'csv', 'taproot', 'mweb', 'testdummy']);

export function parseBlockTemplate(value: unknown, daemon?: string, dialect?: TemplateDialect): BlockTemplate {
  const s = new Shape('getblocktemplate', daemon);
  const t = s.object(value, 'template');

  for (const field of COINBASE_FIELDS) {
    if (dialect?.fields.includes(field)) continue;
    const v = t[field];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && v !== '') {
      throw new UnsupportedTemplateError(
        `getblocktemplate has "${field}": this coin's coinbase requirements are not supported`,
      );
    }
  }

  const rules = t.rules === undefined ? [] : s.array(t.rules, 'rules').map((r, i) => s.string(r, `rules[${i}]`));
  for (const rule of rules) {
    if (rule.startsWith('!') && !UNDERSTOOD_RULES.has(rule.slice(1))) {
      throw new UnsupportedTemplateError(`getblocktemplate enforces rule "${rule.slice(1)}", which is not supported`);
    }
  }

  const transactions = s.array(t.transactions, 'transactions').map((entry, i): TemplateTransaction => {
    const tx = s.object(entry, `transactions[${i}]`);
    const out: TemplateTransaction = {
      data: s.hex(tx.data, `transactions[${i}].data`),
      txid: s.hex(tx.txid ?? tx.hash, `transactions[${i}].txid`, 32),
    };
    const hash = s.optionalHex(tx.hash, `transactions[${i}].hash`, 32);
    if (hash !== undefined) out.hash = hash;
    if (typeof tx.fee === 'number') out.fee = tx.fee;
    if (out.data.length === 0) s.fail(`transactions[${i}].data is empty`);
    return out;
  });

  const coinbaseValue = s.integer(t.coinbasevalue, 'coinbasevalue', 0);
  const curtime = s.integer(t.curtime, 'curtime', 0, 0xffffffff);
  const aux = t.coinbaseaux === undefined || t.coinbaseaux === null ? {} : s.object(t.coinbaseaux, 'coinbaseaux');

  const template: BlockTemplate = {
    version: s.integer(t.version, 'version', -0x80000000, 0xffffffff),
    previousBlockHash: s.hex(t.previousblockhash, 'previousblockhash', 32),
    transactions,
    coinbaseValue: BigInt(coinbaseValue),
    bits: s.hex(t.bits, 'bits', 4),
    curtime,
    mintime: t.mintime === undefined ? curtime : s.integer(t.mintime, 'mintime', 0, 0xffffffff),
    height: s.integer(t.height, 'height', 1, 0x7fffffff),
    rules,
    coinbaseAux: Object.entries(aux)
      .map(([k, v]) => s.hex(v, `coinbaseaux.${k}`))
      .join(''),
  };
  const longPollId = s.optionalString(t.longpollid, 'longpollid');
  if (longPollId !== undefined) template.longPollId = longPollId;
  const commitment = s.optionalHex(t.default_witness_commitment, 'default_witness_commitment');
  if (commitment !== undefined) template.defaultWitnessCommitment = commitment;
  const mweb = s.optionalHex(t.mweb, 'mweb');
  if (mweb !== undefined && mweb.length > 0) template.mweb = mweb;
  const coinbase = dialect?.read(t, template, s);
  if (coinbase !== undefined) template.coinbase = coinbase;
  return template;
}
