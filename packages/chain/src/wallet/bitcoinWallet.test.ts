import { describe, expect, it } from 'vitest';
import { BitcoinWallet } from './bitcoinWallet.js';
import { WalletError } from './wallet.js';

/**
 * BitcoinWallet against a stand-in daemon behind an injected fetch (no sockets): each test sees the
 * exact request text the wallet would send, and answers with reply text written as litecoind writes it.
 */

const TXID = 'c9e46775ccb9692ca3a0e51c3cec52cc40d43ab21012060b677aa95fed464af5';
const OTHER_TXID = 'aa'.repeat(32);

interface Seen {
  url: string;
  method: string;
  params: unknown[];
  body: string;
  authorization: string | null;
}

type Answer =
  | { result: string }
  | { error: { code: number; message: string } }
  | { status: number; text: string }
  | 'refuse'
  | 'hang';

function stand(
  answer: (call: Seen) => Answer,
  options: { searchDepth?: number; maxSearchDepth?: number; url?: string } = {},
) {
  const calls: Seen[] = [];
  const fakeFetch: typeof fetch = async (input, init) => {
    const body = String(init?.body);
    const request = JSON.parse(body) as { id: number; method: string; params: unknown[] };
    const call: Seen = {
      url: String(input),
      method: request.method,
      params: request.params,
      body,
      authorization: new Headers(init?.headers).get('authorization'),
    };
    calls.push(call);
    const a = answer(call);
    if (a === 'refuse') throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED', message: 'refused' } });
    if (a === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    if ('status' in a) return new Response(a.text, { status: a.status });
    if ('error' in a) {
      return new Response(JSON.stringify({ result: null, error: a.error, id: request.id }), { status: 500 });
    }
    return new Response(`{"result":${a.result},"error":null,"id":${request.id}}`, { status: 200 });
  };
  const wallet = new BitcoinWallet({
    coin: 'LTC',
    rpcUrl: options.url ?? 'http://pool:secret@127.0.0.1:9332/wallet/payouts',
    timeoutMs: 50,
    fetch: fakeFetch,
    ...(options.searchDepth !== undefined && { searchDepth: options.searchDepth }),
    ...(options.maxSearchDepth !== undefined && { maxSearchDepth: options.maxSearchDepth }),
  });
  return { wallet, calls };
}

/** gettransaction as litecoind prints it: a payout of two outputs plus one to the wallet's own address. */
const SENT = `{"amount":-1.12345679,"fee":-0.00002260,"confirmations":0,"trusted":true,"txid":"${TXID}",
  "walletconflicts":[],"time":1795363052,"comment":"payout:42","details":[
  {"address":"rltc1qaaa","category":"send","amount":-0.12345678,"vout":0,"fee":-0.00002260,"abandoned":false},
  {"address":"rltc1qbbb","category":"send","amount":-1.00000001,"vout":1,"fee":-0.00002260,"abandoned":false},
  {"address":"rltc1qown","category":"send","amount":-0.30000000,"vout":2,"fee":-0.00002260,"abandoned":false},
  {"address":"rltc1qown","category":"receive","amount":0.30000000,"vout":2}],"hex":"00"}`;

async function walletError(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  return error as WalletError;
}

const OUTPUTS = [
  { address: 'rltc1qaaa', amount: 12_345_678n },
  { address: 'rltc1qbbb', amount: 100_000_001n },
  { address: 'rltc1qown', amount: 30_000_000n },
];

describe('BitcoinWallet.sendMany', () => {
  it('writes each amount as an exact number literal and reads the fee back exactly', async () => {
    const { wallet, calls } = stand((call) =>
      call.method === 'sendmany' ? { result: `"${TXID}"` } : { result: SENT },
    );
    expect(await wallet.sendMany(OUTPUTS, 'payout:42')).toEqual({ txid: TXID, fee: 2260n });
    expect(calls.map((c) => c.method)).toEqual(['sendmany', 'gettransaction']);
    expect(calls[0]?.body).toContain(
      '"params":["",{"rltc1qaaa":0.12345678,"rltc1qbbb":1.00000001,"rltc1qown":0.30000000},1,"payout:42"]',
    );
    expect(calls[1]?.params).toEqual([TXID]);
  });

  it('keeps the wallet path of the URL and sends the credentials as Basic auth', async () => {
    const { wallet, calls } = stand(() => ({ result: 'true' }));
    expect(wallet.daemon).toBe('http://127.0.0.1:9332/wallet/payouts');
    await wallet.sendMany(OUTPUTS, 'payout:42').catch(() => undefined);
    expect(calls[0]?.url).toBe('http://127.0.0.1:9332/wallet/payouts');
    expect(calls[0]?.authorization).toBe(`Basic ${Buffer.from('pool:secret').toString('base64')}`);
  });

  it('writes large amounts without losing a unit', async () => {
    const { wallet, calls } = stand((call) =>
      call.method === 'sendmany' ? { result: `"${TXID}"` } : { result: SENT },
    );
    await wallet.sendMany([{ address: 'rltc1qaaa', amount: 8_399_999_999_999_999n }], 'big');
    expect(calls[0]?.body).toContain('{"rltc1qaaa":83999999.99999999}');
  });

  it.each([
    [-6, 'Insufficient funds', 'insufficient-funds', false],
    [-5, 'Invalid Litecoin address: rltc1qbad', 'invalid-address', false],
    [-6, 'Transaction amount too small', 'rejected', false],
    [-13, 'Error: Please enter the wallet passphrase with walletpassphrase first.', 'rejected', false],
    [-4, 'Error: The transaction was rejected!', 'rejected', true],
  ] as const)('maps RPC error %i "%s" to %s (mayHaveSent %s)', async (code, message, kind, mayHaveSent) => {
    const { wallet, calls } = stand(() => ({ error: { code, message } }));
    const error = await walletError(wallet.sendMany(OUTPUTS, 'payout:42'));
    expect(error).toMatchObject({ kind, mayHaveSent, rpcCode: code, coin: 'LTC', txid: undefined });
    expect(error.message).toContain(message);
    expect(calls).toHaveLength(1);
  });

  it('calls a refused connection and a timeout unreachable, and says the send may have happened', async () => {
    const refused = await walletError(stand(() => 'refuse').wallet.sendMany(OUTPUTS, 'payout:42'));
    expect(refused).toMatchObject({ kind: 'unreachable', mayHaveSent: true });
    expect(refused.message).toContain('ECONNREFUSED');
    const slow = await walletError(stand(() => 'hang').wallet.sendMany(OUTPUTS, 'payout:42'));
    expect(slow).toMatchObject({ kind: 'unreachable', mayHaveSent: true });
    const badGateway = await walletError(
      stand(() => ({ status: 502, text: '<html>Bad Gateway</html>' })).wallet.sendMany(OUTPUTS, 'payout:42'),
    );
    expect(badGateway).toMatchObject({ kind: 'unreachable', mayHaveSent: true });
  });

  it('refuses credentials the daemon rejects, knowing nothing was sent', async () => {
    const error = await walletError(stand(() => ({ status: 401, text: '' })).wallet.sendMany(OUTPUTS, 'payout:42'));
    expect(error).toMatchObject({ kind: 'rejected', mayHaveSent: false });
  });

  it('calls a reply it cannot read unknown, with the send possibly done', async () => {
    const error = await walletError(stand(() => ({ result: '42' })).wallet.sendMany(OUTPUTS, 'payout:42'));
    expect(error).toMatchObject({ kind: 'unknown', mayHaveSent: true });
  });

  it('returns the txid on the error when the send went through but reading it back failed', async () => {
    const { wallet } = stand((call) => (call.method === 'sendmany' ? { result: `"${TXID}"` } : 'refuse'));
    const error = await walletError(wallet.sendMany(OUTPUTS, 'payout:42'));
    expect(error).toMatchObject({ kind: 'unreachable', mayHaveSent: true, txid: TXID });
    expect(error.message).toContain(`sent ${TXID}`);
  });

  it('refuses, before any call, outputs and comments that cannot make a reconcilable payout', async () => {
    const { wallet, calls } = stand(() => ({ result: `"${TXID}"` }));
    const cases: [Parameters<typeof wallet.sendMany>, RegExp][] = [
      [[[], 'payout:1'], /no outputs/],
      [[OUTPUTS, ''], /empty comment/],
      [[[{ address: 'rltc1qaaa', amount: 0n }], 'payout:1'], /not positive/],
      [[[{ address: 'rltc1qaaa', amount: -5n }], 'payout:1'], /not positive/],
      [
        [
          [
            { address: 'rltc1qaaa', amount: 5n },
            { address: 'rltc1qaaa', amount: 6n },
          ],
          'payout:1',
        ],
        /appears twice/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const error = await walletError(wallet.sendMany(...args));
      expect(error).toMatchObject({ kind: 'rejected', mayHaveSent: false });
      expect(error.message).toMatch(pattern);
    }
    expect(calls).toHaveLength(0);
  });
});

describe('BitcoinWallet.transaction', () => {
  it('adds up every send output, the wallet’s own address included, and keeps comment and fee', async () => {
    const { wallet } = stand(() => ({ result: SENT }));
    expect(await wallet.transaction(TXID)).toEqual({
      txid: TXID,
      confirmations: 0,
      comment: 'payout:42',
      amount: 142_345_679n,
      fee: 2260n,
    });
  });

  it('gives a pure receive amount 0 and no fee', async () => {
    const { wallet } = stand(() => ({
      result: `{"amount":0.5,"confirmations":-2,"txid":"${OTHER_TXID}","details":[
        {"address":"rltc1qme","category":"receive","amount":0.50000000,"vout":0}]}`,
    }));
    expect(await wallet.transaction(OTHER_TXID)).toEqual({ txid: OTHER_TXID, confirmations: -2, amount: 0n });
  });

  it('is undefined for a txid the wallet does not know, and for one that is not a txid', async () => {
    const { wallet, calls } = stand(() => ({ error: { code: -5, message: 'Invalid or non-wallet transaction id' } }));
    expect(await wallet.transaction(OTHER_TXID)).toBeUndefined();
    expect(await wallet.transaction('zz')).toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('refuses an amount with more decimals than the coin has', async () => {
    const { wallet } = stand(() => ({
      result: SENT.replace('-0.00002260,"confirmations"', '-0.000022601,"confirmations"'),
    }));
    const error = await walletError(wallet.transaction(TXID));
    expect(error.kind).toBe('unknown');
    expect(error.message).toMatch(/fee: .*more than 8 decimals/);
  });
});

describe('BitcoinWallet.findByComment', () => {
  /** `total` listtransactions entries (listed oldest first, as the daemon does); `marked` keyed by position from the newest. */
  /** Entries are a minute apart, the newest at NEWEST (seconds). */
  const NEWEST = 1_800_000_000;
  function history(total: number, marked: Record<number, { txid: string; category: string; comment: string }>) {
    const entries = Array.from({ length: total }, (_, fromNewest) => {
      const mark = marked[fromNewest];
      return {
        time: NEWEST - fromNewest * 60,
        address: 'rltc1qsomeone',
        category: mark?.category ?? 'send',
        amount: -0.1,
        fee: -0.0000226,
        confirmations: fromNewest,
        txid: mark?.txid ?? fromNewest.toString(16).padStart(64, '0'),
        ...(mark ? { comment: mark.comment } : { comment: `payout:${fromNewest}x` }),
      };
    }).reverse();
    return (call: Seen): Answer => {
      if (call.method === 'gettransaction') return { result: SENT.replace(TXID, String(call.params[0])) };
      const [, count, skip] = call.params as [string, number, number];
      const end = entries.length - skip;
      return { result: JSON.stringify(entries.slice(Math.max(0, end - count), Math.max(0, end))) };
    };
  }

  it('pages back from the newest entries and finds the send whose comment matches exactly', async () => {
    const { wallet, calls } = stand(
      history(400, {
        5: { txid: OTHER_TXID, category: 'receive', comment: 'payout:42' },
        150: { txid: TXID, category: 'send', comment: 'payout:42' },
        151: { txid: TXID, category: 'send', comment: 'payout:42' },
      }),
      { searchDepth: 250 },
    );
    const found = await wallet.findByComment('payout:42');
    expect(found).toMatchObject({ txid: TXID, comment: 'payout:42', amount: 142_345_679n, fee: 2260n });
    expect(calls.map((c) => [c.method, ...c.params])).toEqual([
      ['listtransactions', '*', 100, 0],
      ['listtransactions', '*', 100, 100],
      ['listtransactions', '*', 50, 200],
      ['gettransaction', TXID],
    ]);
  });

  it('is undefined when no send carries the comment, stopping at the end of the history', async () => {
    const { wallet, calls } = stand(history(120, { 3: { txid: TXID, category: 'send', comment: 'payout:42' } }));
    expect(await wallet.findByComment('other')).toBeUndefined();
    expect(await wallet.findByComment('payout:4')).toBeUndefined();
    expect(await wallet.findByComment('')).toBeUndefined();
    expect(calls.map((c) => c.params.slice(1))).toEqual([
      [100, 0],
      [100, 100],
      [100, 0],
      [100, 100],
    ]);
  });

  it('does not look deeper than searchDepth', async () => {
    const { wallet, calls } = stand(history(50, { 30: { txid: TXID, category: 'send', comment: 'payout:42' } }), {
      searchDepth: 30,
    });
    expect(await wallet.findByComment('payout:42')).toBeUndefined();
    expect(calls.map((c) => c.params)).toEqual([['*', 30, 0]]);
  });

  it('with a since, looks back to that time past searchDepth, and stops there', async () => {
    const marked = { 250: { txid: TXID, category: 'send', comment: 'payout:42' } };
    // The send is 250 minutes old; the payout was written 300 minutes ago.
    const since = new Date((NEWEST - 300 * 60) * 1000);
    const { wallet, calls } = stand(history(2000, marked), { searchDepth: 100 });
    expect(await wallet.findByComment('payout:42', since)).toMatchObject({ txid: TXID });
    // Not there: the search ends once entries older than since − 1 hour (360 minutes back) show.
    calls.length = 0;
    expect(await wallet.findByComment('payout:7', since)).toBeUndefined();
    expect(calls.map((c) => c.params[2])).toEqual([0, 100, 200, 300]);
    // Without a since, searchDepth still bounds the search.
    expect(await wallet.findByComment('payout:42')).toBeUndefined();
  });

  it('with a since, refuses to answer "not found" when maxSearchDepth ends the search first', async () => {
    const since = new Date((NEWEST - 5000 * 60) * 1000);
    const { wallet } = stand(history(3000, {}), { maxSearchDepth: 500 });
    const error = await walletError(wallet.findByComment('payout:42', since));
    expect(error.kind).toBe('unknown');
    expect(error.message).toContain('may have been sent');
    // The end of the wallet's history answers, however recent since is.
    const { wallet: short } = stand(history(120, {}), { maxSearchDepth: 500 });
    expect(await short.findByComment('payout:42', since)).toBeUndefined();
  });

  it('refuses to pick one of two transactions that carry the same comment', async () => {
    const { wallet } = stand(
      history(10, {
        1: { txid: TXID, category: 'send', comment: 'payout:42' },
        7: { txid: OTHER_TXID, category: 'send', comment: 'payout:42' },
      }),
    );
    const error = await walletError(wallet.findByComment('payout:42'));
    expect(error.kind).toBe('unknown');
    expect(error.message).toContain(TXID);
    expect(error.message).toContain(OTHER_TXID);
  });
});

describe('BitcoinWallet.balance and validateAddress', () => {
  it('reads getbalances mine.trusted exactly, even where a double could not', async () => {
    const { wallet } = stand(() => ({
      result: '{"mine":{"trusted":123456789012.12345678,"untrusted_pending":1.00000000,"immature":5000.00000000}}',
    }));
    expect(await wallet.balance()).toBe(12_345_678_901_212_345_678n);
  });

  it('falls back to getbalance "*" 1 on daemons without getbalances, and remembers it', async () => {
    const { wallet, calls } = stand((call) =>
      call.method === 'getbalances'
        ? { error: { code: -32601, message: 'Method not found' } }
        : { result: '21.00000001' },
    );
    expect(await wallet.balance()).toBe(2_100_000_001n);
    expect(await wallet.balance()).toBe(2_100_000_001n);
    expect(calls.map((c) => [c.method, ...c.params])).toEqual([
      ['getbalances'],
      ['getbalance', '*', 1],
      ['getbalance', '*', 1],
    ]);
  });

  it('throws WalletError when the balance cannot be read', async () => {
    expect(await walletError(stand(() => 'refuse').wallet.balance())).toMatchObject({
      kind: 'unreachable',
      mayHaveSent: false,
    });
    expect((await walletError(stand(() => ({ result: '{"mine":{}}' })).wallet.balance())).kind).toBe('unknown');
  });

  it('answers validateaddress’s isvalid', async () => {
    const { wallet, calls } = stand((call) => ({
      result: call.params[0] === 'rltc1qgood' ? '{"isvalid":true,"address":"rltc1qgood"}' : '{"isvalid":false}',
    }));
    expect(await wallet.validateAddress('rltc1qgood')).toBe(true);
    expect(await wallet.validateAddress('bc1qnotthisnetwork')).toBe(false);
    expect(calls.map((c) => c.method)).toEqual(['validateaddress', 'validateaddress']);
    expect((await walletError(stand(() => 'refuse').wallet.validateAddress('x'))).kind).toBe('unreachable');
  });
});

describe('BitcoinWallet options', () => {
  it('is a real wallet with its ticker, and refuses impossible settings', () => {
    const wallet = new BitcoinWallet({ coin: 'LTC', rpcUrl: 'http://127.0.0.1:9332/' });
    expect(wallet).toMatchObject({ coin: 'LTC', demo: false, decimals: 8, searchDepth: 1000 });
    expect(() => new BitcoinWallet({ coin: 'X', rpcUrl: 'http://127.0.0.1/', decimals: 19 })).toThrow(RangeError);
    expect(() => new BitcoinWallet({ coin: 'X', rpcUrl: 'http://127.0.0.1/', searchDepth: 0 })).toThrow(RangeError);
    expect(() => new BitcoinWallet({ coin: 'X', rpcUrl: 'not a url' })).toThrow(TypeError);
  });
});
