import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { describe, expect, it } from 'vitest';
import { type BlockInfo, StandInPact } from './chainwebPact.js';

/**
 * The stand-in's Pact service, driven without HTTP. Commands are written here by hand (not by the
 * wallet) so that each rule can be broken on its own.
 */
const KDA = 1_000_000_000_000n;
const NOW = 1_764_000_000_000;
const secret = Buffer.alloc(32, 7);
const pub = Buffer.from(ed25519.getPublicKey(secret)).toString('hex');
const POOL = `k:${pub}`;
const MINER = `k:${'11'.repeat(32)}`;
const BOB = `k:${'22'.repeat(32)}`;

function command(
  overrides: {
    code?: string;
    amountArg?: string;
    chainId?: string;
    networkId?: string;
    creationTime?: number;
    signerKey?: Uint8Array;
    /** Another key that both names the signer and signs: valid signatures, but not the pool's guard. */
    signer?: Uint8Array;
  } = {},
) {
  const amountArg = overrides.amountArg ?? '1.5';
  const cmd = `{"networkId":"${overrides.networkId ?? 'mainnet01'}","payload":{"exec":{"data":{"ks":{"keys":["${'22'.repeat(32)}"],"pred":"keys-all"}},"code":${JSON.stringify(overrides.code ?? `(coin.transfer-create "${POOL}" "${BOB}" (read-keyset "ks") 1.5)`)}}},"signers":[{"pubKey":"${overrides.signer ? Buffer.from(ed25519.getPublicKey(overrides.signer)).toString('hex') : pub}","clist":[{"name":"coin.TRANSFER","args":["${POOL}","${BOB}",${amountArg}]},{"name":"coin.GAS","args":[]}]}],"meta":{"creationTime":${overrides.creationTime ?? NOW / 1000 - 30},"ttl":3600,"gasLimit":2500,"chainId":"${overrides.chainId ?? '0'}","gasPrice":0.00000001,"sender":"${POOL}"},"nonce":"${randomBytes(8).toString('hex')}"}`;
  const hashBytes = blake2b(Buffer.from(cmd), { dkLen: 32 });
  const sig = Buffer.from(ed25519.sign(hashBytes, overrides.signerKey ?? overrides.signer ?? secret)).toString('hex');
  return { hash: Buffer.from(hashBytes).toString('base64url'), sigs: [{ sig }], cmd };
}

function service() {
  const pact = new StandInPact({
    version: 'mainnet01',
    chains: [0, 1],
    minerAccount: MINER,
    minerKeys: ['11'.repeat(32)],
    now: () => NOW,
  });
  pact.fund(0, POOL, 10n * KDA);
  let height = 100;
  const mine = (chainId = 0): BlockInfo => {
    const block = {
      chainId,
      height: ++height,
      hash: `block-${height}`,
      parentHash: `block-${height - 1}`,
      timeMicros: BigInt(NOW) * 1000n,
      parentTimeMicros: BigInt(NOW - 30_000) * 1000n,
    };
    pact.onBlock(block);
    return block;
  };
  const call = (path: string, body: unknown) => {
    const reply = pact.route('POST', path, new URLSearchParams(), Buffer.from(JSON.stringify(body)));
    if (!reply) throw new Error('no route');
    return reply;
  };
  return { pact, mine, call };
}

describe('the stand-in Pact service', () => {
  it('takes a valid transfer-create, runs it in the next block and answers /poll in chainweb JSON', () => {
    const { pact, mine, call } = service();
    const cmd = command();
    expect(call('chain/0/pact/api/v1/send', { cmds: [cmd] })).toMatchObject({
      status: 200,
      body: `{"requestKeys":["${cmd.hash}"]}`,
    });
    expect(call('chain/0/mempool/member', [cmd.hash]).body).toBe('[true]');
    const [looked] = JSON.parse(call('chain/0/mempool/lookup', [cmd.hash]).body);
    expect(looked.tag).toBe('Pending');
    expect(JSON.parse(looked.contents)).toEqual(cmd);
    expect(call('chain/0/pact/api/v1/poll', { requestKeys: [cmd.hash] }).body).toBe('{}');
    const block = mine();
    const polled = JSON.parse(call('chain/0/pact/api/v1/poll', { requestKeys: [cmd.hash] }).body);
    expect(polled[cmd.hash]).toMatchObject({
      reqKey: cmd.hash,
      result: { status: 'success', data: 'Write succeeded' },
      gas: 700,
      metaData: { blockHeight: block.height, blockHash: block.hash, prevBlockHash: block.parentHash },
    });
    expect(call('chain/0/mempool/lookup', [cmd.hash]).body).toBe('[{"tag":"Missing"}]');
    expect(pact.balance(0, BOB)).toBe((3n * KDA) / 2n);
    expect(pact.balance(0, POOL)).toBe(10n * KDA - (3n * KDA) / 2n - 700n * 10_000n);
    expect(pact.balance(0, MINER)).toBe(700n * 10_000n);
    // chainweb refuses a command the chain already holds.
    expect(call('chain/0/pact/api/v1/send', { cmds: [cmd] })).toMatchObject({
      status: 400,
      body: `One or more transactions were invalid: Transaction ${cmd.hash} at index 0 failed with: Transaction already exists on chain`,
    });
  });

  it('refuses at /send what chainweb refuses, with its words', () => {
    const { call } = service();
    const refusal = (cmd: ReturnType<typeof command>) => call('chain/0/pact/api/v1/send', { cmds: [cmd] }).body;
    expect(refusal(command({ chainId: '1' }))).toContain('Wrong chain, expected: 0, actual: 1');
    expect(refusal(command({ networkId: 'testnet04' }))).toContain('conflicts with this endpoint');
    expect(refusal(command({ creationTime: NOW / 1000 - 7200 }))).toContain('Transaction time-to-live is expired');
    expect(refusal(command({ creationTime: NOW / 1000 + 60 }))).toContain('too far in the future');
    expect(refusal(command({ code: '(coin.transfer "a" "b" 1.0)' }))).toContain('Pact parse error');
    expect(refusal(command({ signerKey: Buffer.alloc(32, 8) }))).toContain('The signature at position 0 is invalid');
    expect(refusal(command({ signer: Buffer.alloc(32, 9) }))).toContain('Failed to buy gas: Keyset failure (keys-all)');
    const tampered = command();
    expect(refusal({ ...tampered, cmd: tampered.cmd.replace('1.5)', '2.5)') })).toContain('Invalid transaction hash');
    // The gas payer must exist on this chain.
    expect(call('chain/1/pact/api/v1/send', { cmds: [command({ chainId: '1' })] }).body).toContain(
      'Failed to buy gas: No value found',
    );
  });

  it('fails on the chain a transfer the clist does not grant, charging the gas', () => {
    const { pact, mine, call } = service();
    const short = command({ amountArg: '1.4' });
    call('chain/0/pact/api/v1/send', { cmds: [short] });
    mine();
    const result = JSON.parse(call('chain/0/pact/api/v1/poll', { requestKeys: [short.hash] }).body)[short.hash];
    expect(result.result).toMatchObject({ status: 'failure', error: { message: 'TRANSFER exceeded for balance 1.4' } });
    expect(pact.balance(0, BOB)).toBeUndefined();
    expect(pact.balance(0, POOL)).toBe(10n * KDA - 2500n * 10_000n);
  });

  it('answers get-balance on /local exactly, in Pact number forms', () => {
    const { pact, call } = service();
    pact.fund(0, BOB, 1n);
    const local = (account: string) =>
      JSON.parse(call('chain/0/pact/api/v1/local', { ...command({ code: `(coin.get-balance "${account}")` }) }).body);
    expect(call('chain/0/pact/api/v1/local', command({ code: `(coin.get-balance "${BOB}")` })).body).toContain(
      '"data":1.0e-12',
    );
    expect(local(POOL).result).toEqual({ status: 'success', data: 10 });
    expect(local(MINER).result.error.message).toMatch(/^No value found in table coin_coin-table for key: k:11111111/);
  });

  it('undoes an orphaned block and gives its commands back to the mempool', () => {
    const { pact, mine, call } = service();
    const cmd = command();
    call('chain/0/pact/api/v1/send', { cmds: [cmd] });
    const block = mine();
    expect(pact.balance(0, BOB)).toBe((3n * KDA) / 2n);
    pact.onOrphan(0, [block.hash]);
    expect(pact.balance(0, BOB)).toBeUndefined();
    expect(pact.balance(0, POOL)).toBe(10n * KDA);
    expect(pact.pending(0)).toEqual([cmd.hash]);
    expect(call('chain/0/pact/api/v1/poll', { requestKeys: [cmd.hash] }).body).toBe('{}');
  });
});
