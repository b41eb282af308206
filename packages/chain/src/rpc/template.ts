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
}

/** A template this package cannot mine correctly (a rule or a coinbase requirement it does not know). */
export class UnsupportedTemplateError extends Error {
  override readonly name = 'UnsupportedTemplateError';
}

/**
 * Rules a miner must understand to use a template with the rule enforced (BIP9: a `!` prefix means
 * "must understand"); these are the ones whose block layout this package builds.
 */
export const UNDERSTOOD_RULES = new Set(['segwit', 'csv', 'taproot', 'mweb', 'testdummy']);

export function parseBlockTemplate(value: unknown, daemon?: string): BlockTemplate {
  const s = new Shape('getblocktemplate', daemon);
  const t = s.object(value, 'template');

  for (const field of ['coinbasetxn', 'masternode', 'coinbase_payload', 'superblock']) {
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
  return template;
}
