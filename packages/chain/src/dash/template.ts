import { hexToBytes } from '../bitcoin/bytes.js';
import { ParseError } from '../bitcoin/reader.js';
import type { Shape } from '../rpc/shape.js';
import {
  type BlockTemplate,
  type CoinbaseRequirements,
  type RequiredPayee,
  type TemplateDialect,
  UnsupportedTemplateError,
} from '../rpc/template.js';
import { CBTX_KNOWN_VERSION, parseCbTx, readCbTxPrefix } from './cbtx.js';
import { specialTxVersionField, TRANSACTION_COINBASE } from './specialTx.js';

/**
 * Dash's getblocktemplate (Dash Core src/rpc/mining.cpp, getblocktemplate):
 *
 * - `masternode`: `[{payee, script, amount}]`, the masternode (and, since v20's MN reward
 *   reallocation, the platform share as an OP_RETURN output with an empty `payee`) payments;
 * - `superblock`: the same shape, the governance payments of a superblock (usually empty);
 * - `coinbase_payload`: the coinbase's DIP4 extra payload, hex (`HexStr(vtx[0]->vExtraPayload)`);
 * - `coinbasevalue`: `vtx[0]->GetValueOut()` of the node's own coinbase. Dash Core builds that
 *   coinbase with the block reward (subsidy + fees) in vout[0], then FillBlockPayments
 *   (src/masternode/payments.cpp) appends the masternode outputs, subtracting each from vout[0], and
 *   appends the superblock outputs without subtracting them. So `coinbasevalue` is reward +
 *   superblock payments, and the miner's own output is `coinbasevalue` minus every listed payee.
 *
 * The payees are matched by Dash Core as exact (amount, script) outputs anywhere in the coinbase
 * (MasternodePayments IsTransactionValid: `txout == txout2`); we write them after the pool's output,
 * masternode first, in the node's order, as the node's own coinbase does. The payload is copied as
 * given: its merkle roots (masternode list, quorums), ChainLock and credit pool balance are the
 * node's to compute, and CheckCbTxMerkleRoots refuses any other.
 */
export const DASH_TEMPLATE_DIALECT: TemplateDialect = {
  name: 'dash',
  fields: ['masternode', 'superblock', 'coinbase_payload'],
  read: readDashTemplate,
};

function readDashTemplate(t: Record<string, unknown>, base: BlockTemplate, s: Shape): CoinbaseRequirements | undefined {
  if (t.coinbasetxn !== undefined && t.coinbasetxn !== null) {
    throw new UnsupportedTemplateError(
      'getblocktemplate has "coinbasetxn": a Dash template is built from coinbasevalue',
    );
  }
  const payees = [...readPayees(t.masternode, 'masternode', s), ...readPayees(t.superblock, 'superblock', s)];
  const paid = payees.reduce((sum, p) => sum + p.value, 0n);
  if (paid > base.coinbaseValue) {
    throw new UnsupportedTemplateError(
      `getblocktemplate's payees take ${paid} but coinbasevalue is ${base.coinbaseValue}: nothing is left for the pool`,
    );
  }
  const payload = s.optionalHex(t.coinbase_payload, 'coinbase_payload') ?? '';
  const requirements: CoinbaseRequirements = { payees };
  if (payload.length > 0) {
    checkPayload(payload, base.height);
    requirements.txVersion = specialTxVersionField(TRANSACTION_COINBASE);
    requirements.extraPayload = payload;
  }
  if (payees.length === 0 && requirements.extraPayload === undefined) return undefined;
  return requirements;
}

function readPayees(value: unknown, field: string, s: Shape): RequiredPayee[] {
  if (value === undefined || value === null) return [];
  return s.array(value, field).map((entry, i): RequiredPayee => {
    const where = `${field}[${i}]`;
    const p = s.object(entry, where);
    if (p.script === undefined || p.script === null || p.script === '') {
      throw new UnsupportedTemplateError(`getblocktemplate's ${where} has no script: the node must give payee scripts`);
    }
    const script = s.hex(p.script, `${where}.script`);
    const amount = s.integer(p.amount, `${where}.amount`, 0);
    return { kind: field, value: BigInt(amount), script };
  });
}

/**
 * The payload must be a CbTx for this template's height (CheckCbTx: bad-cbtx-height). Versions we
 * know are decoded whole, so that a truncated or padded payload is refused before miners work on it;
 * a newer version is carried as the node gives it once its height checks out.
 */
function checkPayload(payload: string, height: number): void {
  const bytes = hexToBytes(payload, 'coinbase_payload');
  let prefix: { version: number; height: number };
  try {
    prefix = readCbTxPrefix(bytes);
    if (prefix.version === 0) throw new ParseError('CbTx version 0 is invalid');
    if (prefix.version <= CBTX_KNOWN_VERSION) parseCbTx(bytes);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    throw new UnsupportedTemplateError(`getblocktemplate's coinbase_payload is not a CbTx: ${error.message}`);
  }
  if (prefix.height !== height) {
    throw new UnsupportedTemplateError(
      `getblocktemplate's coinbase_payload is for height ${prefix.height}, the template for height ${height}`,
    );
  }
}
