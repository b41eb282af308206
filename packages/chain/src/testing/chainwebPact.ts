/**
 * The Pact side of the stand-in chainweb-node: per-chain coin balances, a mempool per chain, and the
 * Pact service API in chainweb's paths and JSON (kadena-io/chainweb-node @5e46fa79):
 *
 *   POST /chainweb/0.0/{v}/chain/{c}/pact/api/v1/send    {"cmds":[…]} → {"requestKeys":[…]}   (Pact/RestAPI.hs)
 *   POST …/pact/api/v1/poll                               {"requestKeys":[…]} → {rk: CommandResult}, unknown keys absent
 *   POST …/pact/api/v1/local                              one command → CommandResult (not recorded)
 *   POST /chainweb/0.0/{v}/chain/{c}/mempool/member       ["rk"] → [bool]   (Mempool/RestAPI.hs; on the node's P2P API)
 *
 * Refusals are 400 with chainweb's text (Pact/RestAPI/Server.hs sendHandler: "One or more transactions were
 * invalid: Transaction <rk> at index <i> failed with: <InsertError>", Mempool/Mempool.hs). A command is
 * read and checked by pactVerifier.ts (its own code, not the wallet's); it runs when the next block of its
 * chain is added, with the coin contract's rules for the two forms it knows (chainweb-node
 * pact/coin-contract/coin.pact: buy-gas, transfer-create, TRANSFER managed by amount, DEBIT's guard,
 * credit's enforce-reserved for `k:` accounts, redeem-gas to the block's miner).
 */
import {
  type Capability,
  type CoinCall,
  compareDecimals,
  decimalInUnits,
  isObject,
  type Json,
  JsonNumberText,
  jsonDecimal,
  type PactDecimal,
  type PactPayload,
  PactRefusal,
  readCoinCall,
  readJsonExact,
  type VerifiedCommand,
  verifyPactCommand,
} from './pactVerifier.js';

/** KDA has 12 decimals (coin.pact MINIMUM_PRECISION). */
const PLACES = 12;
/** chainweb-node's defaults: block gas limit 150 000 and minimum gas price 1e-8 KDA (src/Chainweb/Chainweb/Configuration.hs _configBlockGasLimit, _configMinGasPrice). */
const BLOCK_GAS_LIMIT = 150_000n;
const MIN_GAS_PRICE_UNITS = 10_000n;
/** InMem.hs txTTLCheck: creation time may be up to 10 s ahead of the node's clock. */
const FUTURE_GRACE_SECONDS = 10n;

export interface Keyset {
  keys: string[];
  pred: string;
}

interface Account {
  balance: bigint;
  guard: Keyset;
}

interface Pending {
  verified: VerifiedCommand;
  call: CoinCall;
  /** The command as submitted (mempool/lookup gives it back). */
  text: string;
}

interface Mined {
  blockHash: string;
  result: string;
}

interface BlockRecord {
  hash: string;
  /** Each account touched, as it was before the block (undefined: did not exist). */
  before: Map<string, Account | undefined>;
  hashes: string[];
  /** Commands to give back to the mempool if the block leaves the chain. */
  commands: Pending[];
}

export interface BlockInfo {
  chainId: number;
  height: number;
  hash: string;
  parentHash: string;
  /** µs since the epoch (the header's creation time). */
  timeMicros: bigint;
  /** Creation time of the parent (µs): a command's TTL is judged against it (chainweb-node Pact5/ExecBlock.hs). */
  parentTimeMicros: bigint;
}

export interface PactReply {
  status: number;
  body: string;
  type: string;
}

export interface StandInPactOptions {
  version: string;
  chains: readonly number[];
  /** The account the stand-in's blocks credit gas fees to. */
  minerAccount: string;
  minerKeys: readonly string[];
  now: () => number;
  /** Gas a transfer-create uses when it succeeds (default 700). */
  transferGas?: number;
}

export class StandInPact {
  private readonly ledgers = new Map<number, Map<string, Account>>();
  private readonly mempools = new Map<number, Map<string, Pending>>();
  private readonly mined = new Map<number, Map<string, Mined>>();
  private readonly blocks = new Map<number, BlockRecord[]>();
  private txId = 1_000_000;
  private readonly transferGas: bigint;

  constructor(private readonly options: StandInPactOptions) {
    for (const c of options.chains) {
      this.ledgers.set(c, new Map());
      this.mempools.set(c, new Map());
      this.mined.set(c, new Map());
      this.blocks.set(c, []);
    }
    this.transferGas = BigInt(options.transferGas ?? 700);
  }

  /** Test control: credits `units` (10^-12 KDA) to `account` on a chain, creating it with `guard` (a k: account's own key by default). */
  fund(chainId: number, account: string, units: bigint, guard?: Keyset): void {
    const ledger = this.ledger(chainId);
    const existing = ledger.get(account);
    if (existing) {
      existing.balance += units;
      return;
    }
    const keys = guard ?? (account.startsWith('k:') ? { keys: [account.slice(2)], pred: 'keys-all' } : undefined);
    if (keys === undefined) throw new Error(`a guard is needed to create ${account}`);
    ledger.set(account, { balance: units, guard: keys });
  }

  /** Test control: an account's balance on a chain in 10^-12 KDA, undefined when it does not exist there. */
  balance(chainId: number, account: string): bigint | undefined {
    return this.ledger(chainId).get(account)?.balance;
  }

  /** Request keys waiting in a chain's mempool. */
  pending(chainId: number): string[] {
    return [...(this.mempools.get(chainId)?.keys() ?? [])];
  }

  /** Runs the chain's pending commands in the new block at the head of `chainId`. */
  onBlock(block: BlockInfo): void {
    const mempool = this.mempools.get(block.chainId) as Map<string, Pending>;
    const record: BlockRecord = { hash: block.hash, before: new Map(), hashes: [], commands: [] };
    for (const [hash, pending] of [...mempool]) {
      const meta = pending.verified.payload.meta;
      const parentSeconds = block.parentTimeMicros / 1_000_000n;
      // Pact5/ExecBlock.hs checkTimes against the parent's creation time: an expired command is dropped.
      if (meta.creationTime + meta.ttl <= parentSeconds) {
        mempool.delete(hash);
        continue;
      }
      if (meta.creationTime > parentSeconds + 95n) continue; // lenientTimeSlop: not yet
      mempool.delete(hash);
      const result = this.execute(block, pending, record);
      if (result === undefined) continue; // buy-gas failed: not included (PactService.hs attemptBuyGas)
      record.hashes.push(hash);
      record.commands.push(pending);
      (this.mined.get(block.chainId) as Map<string, Mined>).set(hash, { blockHash: block.hash, result });
    }
    (this.blocks.get(block.chainId) as BlockRecord[]).push(record);
  }

  /** Blocks left chain `chainId` (newest last): their effects are undone and their commands wait again. */
  onOrphan(chainId: number, removedHashes: readonly string[]): void {
    const records = this.blocks.get(chainId) as BlockRecord[];
    const ledger = this.ledger(chainId);
    const mined = this.mined.get(chainId) as Map<string, Mined>;
    const mempool = this.mempools.get(chainId) as Map<string, Pending>;
    for (const hash of [...removedHashes].reverse()) {
      const index = records.findIndex((r) => r.hash === hash);
      if (index === -1) continue;
      const [record] = records.splice(index, 1) as [BlockRecord];
      for (const [account, before] of record.before) {
        if (before === undefined) ledger.delete(account);
        else ledger.set(account, before);
      }
      for (const rk of record.hashes) mined.delete(rk);
      for (const pending of record.commands) mempool.set(pending.verified.hash, pending);
    }
  }

  /** Answers a Pact or mempool call (`rest` is the path after /chainweb/0.0/{v}/), or undefined when the path is not one. */
  route(method: string, rest: string, query: URLSearchParams, body: Buffer): PactReply | undefined {
    const pact = /^chain\/(\d+)\/pact\/api\/v1\/(send|poll|local|listen)$/.exec(rest);
    const mempool = /^chain\/(\d+)\/mempool\/(member|lookup)$/.exec(rest);
    const match = pact ?? mempool;
    if (!match) return undefined;
    const chainId = Number(match[1]);
    if (method !== 'POST' || !this.ledgers.has(chainId)) return text(404, 'Not Found');
    let json: Json;
    try {
      json = readJsonExact(body.toString('utf8'));
    } catch (error) {
      return text(400, `Error in $: ${(error as Error).message}`);
    }
    switch (match[2]) {
      case 'send':
        return this.send(chainId, json);
      case 'poll':
        return this.poll(chainId, json);
      case 'local':
        return this.local(chainId, json, query);
      case 'member':
      case 'lookup':
        return this.member(chainId, json, match[2]);
      default:
        return text(400, 'the stand-in does not serve /listen: use /poll');
    }
  }

  private send(chainId: number, json: Json): PactReply {
    const cmds = isObject(json) ? json.cmds : undefined;
    if (!Array.isArray(cmds) || cmds.length === 0) return text(400, 'Error in $: key "cmds" not found');
    const accepted: Pending[] = [];
    const errors: string[] = [];
    for (const [i, command] of cmds.entries()) {
      const hash = isObject(command) && typeof command.hash === 'string' ? command.hash : '';
      try {
        accepted.push(this.admit(chainId, command));
      } catch (error) {
        if (!(error instanceof PactRefusal)) throw error;
        // The payload's JSON is read before the mempool's checks, and refuses the whole batch on its own.
        if (error.message.startsWith('reading JSON')) return text(400, error.message);
        errors.push(`Transaction ${hash} at index ${i} failed with: ${error.message}`);
      }
    }
    // sendHandler: if any command of the batch is invalid, none is taken.
    if (errors.length > 0) return text(400, `One or more transactions were invalid: ${errors.join(', ')}`);
    const mempool = this.mempools.get(chainId) as Map<string, Pending>;
    for (const pending of accepted) mempool.set(pending.verified.hash, pending);
    return jsonReply(200, `{"requestKeys":${JSON.stringify(accepted.map((p) => p.verified.hash))}}`);
  }

  /** The mempool's insert checks (InMem.hs validateOne, Pact5/ExecBlock.hs validateParsedChainwebTx, buy-gas). */
  private admit(chainId: number, command: Json): Pending {
    const verified = verifyPactCommand(command);
    const { payload } = verified;
    this.checkEndpoint(chainId, payload);
    const meta = payload.meta;
    if (meta.gasLimit > BLOCK_GAS_LIMIT) {
      throw new PactRefusal(`Transaction gas limit exceeds block gas limit (${BLOCK_GAS_LIMIT})`);
    }
    const price = decimalInUnits(meta.gasPrice, PLACES);
    if (price === undefined) {
      throw new PactRefusal(
        `insert error: This transaction's gas price: ${decimalText(meta.gasPrice)} is not correctly rounded. It should be rounded to at most 12 decimal places.`,
      );
    }
    if (price < MIN_GAS_PRICE_UNITS) {
      throw new PactRefusal(
        `Transaction gas price (${decimalText(meta.gasPrice)}) is below minimum gas price (0.00000001)`,
      );
    }
    const nowSeconds = BigInt(Math.floor(this.options.now() / 1000));
    if (!(meta.creationTime < nowSeconds + FUTURE_GRACE_SECONDS)) {
      throw new PactRefusal('Transaction creation time too far in the future');
    }
    if (!(nowSeconds < meta.creationTime + meta.ttl)) throw new PactRefusal('Transaction time-to-live is expired');
    if ((this.mined.get(chainId) as Map<string, Mined>).has(verified.hash)) {
      throw new PactRefusal('Transaction already exists on chain');
    }
    const call = readCoinCall(payload.code);
    const gasFailure = this.buyGasFailure(payload, this.ledger(chainId));
    if (gasFailure !== undefined) {
      throw new PactRefusal(`Attempt to buy gas failed with: ${verified.hash} Failed to buy gas: ${gasFailure}`);
    }
    return { verified, call, text: writeJson(command) };
  }

  private checkEndpoint(chainId: number, payload: PactPayload): void {
    if (payload.networkId !== this.options.version) {
      throw new PactRefusal('Transaction metadata (chain id, chainweb version) conflicts with this endpoint');
    }
    if (payload.meta.chainId !== String(chainId)) {
      throw new PactRefusal(`Wrong chain, expected: ${chainId}, actual: ${payload.meta.chainId}`);
    }
  }

  /** Why buy-gas would fail (coin.pact buy-gas: DEBIT sender under GAS, enough balance), or undefined. */
  private buyGasFailure(payload: PactPayload, ledger: Map<string, Account>): string | undefined {
    const fee = payload.meta.gasLimit * (decimalInUnits(payload.meta.gasPrice, PLACES) ?? 0n);
    const sender = ledger.get(payload.meta.sender);
    if (sender === undefined) {
      return `No value found in table coin_coin-table for key: ${abbreviate(payload.meta.sender)}`;
    }
    const gas: Capability = { name: 'coin.GAS', args: [] };
    const failure = keysetFailure(sender.guard, payload, gas);
    if (failure !== undefined) return failure;
    if (sender.balance < fee) return 'Insufficient funds';
    return undefined;
  }

  /**
   * One command in a block: buy gas, run the code (its writes kept only if it succeeds), redeem gas to
   * the miner. The CommandResult JSON, or undefined when gas cannot be bought.
   */
  private execute(block: BlockInfo, pending: Pending, record: BlockRecord): string | undefined {
    const ledger = this.ledger(block.chainId);
    const { payload, hash } = pending.verified;
    if (this.buyGasFailure(payload, ledger) !== undefined) return undefined;
    const price = decimalInUnits(payload.meta.gasPrice, PLACES) as bigint;
    const touch = (account: string) => {
      if (!record.before.has(account)) {
        const entry = ledger.get(account);
        record.before.set(account, entry && { balance: entry.balance, guard: entry.guard });
      }
    };
    const sender = payload.meta.sender;
    touch(sender);
    touch(this.options.minerAccount);
    const payer = ledger.get(sender) as Account;
    payer.balance -= payload.meta.gasLimit * price;

    // The code runs on a copy; its writes land only when it succeeds.
    const writes = new Map<string, Account>();
    const read = (account: string) => writes.get(account) ?? ledger.get(account);
    let outcome: { ok: Json; events: string[] } | { error: string };
    let gas = payload.meta.gasLimit;
    try {
      const ok = this.run(pending.call, payload, read, (account, entry) => writes.set(account, entry));
      if (this.transferGas > payload.meta.gasLimit) {
        throw new PactRefusal(`Gas limit (${payload.meta.gasLimit}) exceeded: ${this.transferGas}`);
      }
      gas = pending.call.fn === 'get-balance' ? 20n : this.transferGas;
      outcome = ok;
    } catch (error) {
      if (!(error instanceof PactRefusal)) throw error;
      outcome = { error: error.message };
    }
    if ('ok' in outcome) {
      for (const [account, entry] of writes) {
        touch(account);
        ledger.set(account, { balance: entry.balance, guard: entry.guard });
      }
    }
    // redeem-gas: the unused gas goes back to the sender, the used gas to the block's miner.
    (ledger.get(sender) as Account).balance += (payload.meta.gasLimit - gas) * price;
    const miner = ledger.get(this.options.minerAccount);
    if (miner) miner.balance += gas * price;
    else
      ledger.set(this.options.minerAccount, {
        balance: gas * price,
        guard: { keys: [...this.options.minerKeys], pred: 'keys-all' },
      });

    const txId = this.txId++;
    const result =
      'ok' in outcome
        ? `{"status":"success","data":${writeJson(outcome.ok)}}`
        : `{"status":"failure","error":{"callStack":[],"type":"TxFailure","message":${JSON.stringify(outcome.error)},"info":""}}`;
    const events = 'ok' in outcome ? outcome.events : [];
    const gasEvent = transferEvent(sender, this.options.minerAccount, unitsText(gas * price));
    const metaData = `{"blockHeight":${block.height},"blockTime":${block.timeMicros},"blockHash":${JSON.stringify(block.hash)},"prevBlockHash":${JSON.stringify(block.parentHash)}}`;
    return `{"gas":${gas},"result":${result},"reqKey":${JSON.stringify(hash)},"logs":${JSON.stringify(hash)},"events":[${[...events, gasEvent].join(',')}],"metaData":${metaData},"continuation":null,"txId":${txId}}`;
  }

  /** The coin contract's rules for the forms the stand-in runs. Throws PactRefusal with the contract's message. */
  private run(
    call: CoinCall,
    payload: PactPayload,
    read: (account: string) => Account | undefined,
    write: (account: string, entry: Account) => void,
  ): { ok: Json; events: string[] } {
    if (call.fn === 'get-balance') {
      const entry = read(call.account);
      if (!entry) throw new PactRefusal(`No value found in table coin_coin-table for key: ${abbreviate(call.account)}`);
      return { ok: new JsonNumberText(unitsText(entry.balance)), events: [] };
    }
    const { sender, receiver, amount } = call;
    if (sender === receiver) throw new PactRefusal('sender cannot be the receiver of a transfer');
    for (const account of [sender, receiver]) validateAccount(account);
    if (compareDecimals(amount, { mantissa: 0n, scale: 0 }) <= 0) {
      throw new PactRefusal('transfer amount must be positive');
    }
    const units = decimalInUnits(amount, PLACES);
    if (units === undefined) throw new PactRefusal(`Amount violates minimum precision: ${decimalText(amount)}`);
    // TRANSFER is managed by amount: a signer must have installed it for this sender and receiver with
    // at least this amount (coin.pact TRANSFER-mgr: "TRANSFER exceeded for balance {}").
    const installed = payload.signers
      .flatMap((s) => s.clist)
      .find((c) => c.name === 'coin.TRANSFER' && c.args.length === 3 && c.args[0] === sender && c.args[1] === receiver);
    const granted = installed && jsonDecimal(installed.args[2] ?? null);
    if (!installed || granted === undefined) {
      throw new PactRefusal(
        'Managed capability coin.TRANSFER was not installed. Check the sigs field or the arguments to verify that the capability is specified correctly.',
      );
    }
    if (compareDecimals(granted, amount) < 0) {
      throw new PactRefusal(`TRANSFER exceeded for balance ${decimalText(granted)}`);
    }
    const from = read(sender);
    if (!from) throw new PactRefusal(`No value found in table coin_coin-table for key: ${abbreviate(sender)}`);
    const keyFailure = keysetFailure(from.guard, payload, installed);
    if (keyFailure !== undefined) throw new PactRefusal(keyFailure);
    if (from.balance < units) throw new PactRefusal('Insufficient funds');
    const guard = readKeyset(payload.data, call.keysetName);
    const to = read(receiver);
    if (to) {
      if (!sameKeyset(to.guard, guard)) throw new PactRefusal('account guards do not match');
    } else {
      enforceReserved(receiver, guard);
    }
    write(sender, { balance: from.balance - units, guard: from.guard });
    write(receiver, { balance: (to?.balance ?? 0n) + units, guard: to?.guard ?? guard });
    return { ok: 'Write succeeded', events: [transferEvent(sender, receiver, unitsText(units))] };
  }

  private poll(chainId: number, json: Json): PactReply {
    const keys = isObject(json) ? json.requestKeys : undefined;
    if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string')) {
      return text(400, 'Error in $: key "requestKeys" not found');
    }
    const mined = this.mined.get(chainId) as Map<string, Mined>;
    const found = (keys as string[]).flatMap((k) => {
      const m = mined.get(k);
      return m ? [`${JSON.stringify(k)}:${m.result}`] : [];
    });
    return jsonReply(200, `{${found.join(',')}}`);
  }

  private local(chainId: number, json: Json, query: URLSearchParams): PactReply {
    let verified: VerifiedCommand;
    try {
      // Pact/RestAPI/Server.hs localHandler: signatureVerification=false checks only the hash.
      verified = verifyPactCommand(json, { signatures: query.get('signatureVerification') !== 'false' });
      this.checkEndpoint(chainId, verified.payload);
    } catch (error) {
      if (!(error instanceof PactRefusal)) throw error;
      return text(400, `Validation failed: ${error.message}`);
    }
    let call: CoinCall;
    try {
      call = readCoinCall(verified.payload.code);
    } catch (error) {
      return text(400, `Execution failed: ${(error as Error).message}`);
    }
    const ledger = this.ledger(chainId);
    let result: string;
    try {
      const ok = this.run(
        call,
        verified.payload,
        (a) => ledger.get(a),
        () => undefined,
      );
      result = `{"status":"success","data":${writeJson(ok.ok)}}`;
    } catch (error) {
      if (!(error instanceof PactRefusal)) throw error;
      result = `{"status":"failure","error":{"callStack":[],"type":"TxFailure","message":${JSON.stringify(error.message)},"info":""}}`;
    }
    return jsonReply(
      200,
      `{"gas":20,"result":${result},"reqKey":${JSON.stringify(verified.hash)},"logs":null,"metaData":null,"continuation":null,"txId":null}`,
    );
  }

  private member(chainId: number, json: Json, call: 'member' | 'lookup'): PactReply {
    if (!Array.isArray(json) || !json.every((k) => typeof k === 'string'))
      return text(400, 'Error in $: a list of hashes');
    const mempool = this.mempools.get(chainId) as Map<string, Pending>;
    const answers = (json as string[]).map((k) => {
      const pending = mempool.get(k);
      if (call === 'member') return String(pending !== undefined);
      return pending ? `{"tag":"Pending","contents":${JSON.stringify(pending.text)}}` : '{"tag":"Missing"}';
    });
    return jsonReply(200, `[${answers.join(',')}]`);
  }

  private ledger(chainId: number): Map<string, Account> {
    const ledger = this.ledgers.get(chainId);
    if (!ledger) throw new RangeError(`no chain ${chainId}`);
    return ledger;
  }
}

/**
 * Whether the signers satisfy `guard` while `cap` is acquired: a key counts when its signer lists no
 * capability (unscoped) or lists `cap` (Pact's scoped signatures).
 */
function keysetFailure(guard: Keyset, payload: PactPayload, cap: Capability): string | undefined {
  const inScope = new Set(
    payload.signers
      .filter((s) => s.clist.length === 0 || s.clist.some((c) => sameCapability(c, cap)))
      .map((s) => s.pubKey),
  );
  const count = guard.keys.filter((k) => inScope.has(k)).length;
  const ok =
    guard.pred === 'keys-all'
      ? count === guard.keys.length
      : guard.pred === 'keys-any'
        ? count >= 1
        : guard.pred === 'keys-2'
          ? count >= 2
          : false;
  return ok ? undefined : `Keyset failure (${guard.pred}): [${guard.keys.map((k) => abbreviate(k)).join(', ')}]`;
}

function sameCapability(a: Capability, b: Capability): boolean {
  return a.name === b.name && writeJson(a.args) === writeJson(b.args);
}

function readKeyset(data: Json, name: string): Keyset {
  const value = isObject(data) ? data[name] : undefined;
  if (!isObject(value) || !Array.isArray(value.keys) || !value.keys.every((k) => typeof k === 'string')) {
    throw new PactRefusal(`No such key in message: ${name}`);
  }
  const pred = typeof value.pred === 'string' ? value.pred : 'keys-all';
  return { keys: value.keys as string[], pred };
}

function sameKeyset(a: Keyset, b: Keyset): boolean {
  return a.pred === b.pred && [...a.keys].sort().join() === [...b.keys].sort().join();
}

/** coin.pact enforce-reserved: a `k:` account's guard must be the single key its name holds. */
function enforceReserved(account: string, guard: Keyset): void {
  const colon = account.length >= 2 && account[1] === ':';
  if (!colon) return;
  if (account[0] === 'k') {
    const principal = guard.pred === 'keys-all' && guard.keys.length === 1 && `k:${guard.keys[0]}` === account;
    if (!principal) throw new PactRefusal('Single-key account protocol violation');
    return;
  }
  throw new PactRefusal(`Reserved protocol guard violation: ${account[0]}`);
}

/** coin.pact validate-account: 3 to 256 latin-1 characters. */
function validateAccount(account: string): void {
  if ([...account].some((c) => c.charCodeAt(0) > 0xff)) {
    throw new PactRefusal(`Account does not conform to the coin contract charset: ${account}`);
  }
  if (account.length < 3)
    throw new PactRefusal(`Account name does not conform to the min length requirement: ${account}`);
  if (account.length > 256)
    throw new PactRefusal(`Account name does not conform to the max length requirement: ${account}`);
}

function decimalText(d: PactDecimal): string {
  const negative = d.mantissa < 0n;
  const digits = (negative ? -d.mantissa : d.mantissa).toString().padStart(d.scale + 1, '0');
  const text = d.scale === 0 ? `${digits}.0` : `${digits.slice(0, -d.scale)}.${digits.slice(-d.scale)}`;
  return negative ? `-${text}` : text;
}

/**
 * Units as Pact writes a decimal in JSON (pact-5 StableEncoding.hs encodeDecimal through Aeson): a plain
 * number — in exponent form below 0.1, as Haskell's Scientific prints it — or `{"decimal": "…"}`
 * when the mantissa is beyond 2^53.
 */
function unitsText(units: bigint): string {
  let mantissa = units;
  let scale = PLACES;
  while (scale > 0 && mantissa % 10n === 0n) {
    mantissa /= 10n;
    scale--;
  }
  if (mantissa > 9_007_199_254_740_991n) return `{"decimal":${JSON.stringify(decimalText({ mantissa, scale }))}}`;
  if (scale === 0) return mantissa.toString();
  const digits = mantissa.toString();
  if (digits.length - scale <= -1) {
    // 0.0…0ddd → d.dd e-N
    const exponent = digits.length - scale - 1;
    return `${digits[0]}.${digits.slice(1) || '0'}e${exponent}`;
  }
  return decimalText({ mantissa, scale });
}

function transferEvent(from: string, to: string, amount: string): string {
  return `{"params":[${JSON.stringify(from)},${JSON.stringify(to)},${amount}],"name":"TRANSFER","module":{"namespace":null,"name":"coin"},"moduleHash":"klFkrLfpyLW-M3xjVPSdqXEMgxPPJibRt_D6qiBws6s"}`;
}

function writeJson(value: Json): string {
  if (value instanceof JsonNumberText) return value.text;
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${writeJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function abbreviate(text: string): string {
  return text.length <= 10 ? text : `${text.slice(0, 10)}...`;
}

function text(status: number, body: string): PactReply {
  return { status, body, type: 'text/plain;charset=utf-8' };
}

function jsonReply(status: number, body: string): PactReply {
  return { status, body, type: 'application/json;charset=utf-8' };
}
