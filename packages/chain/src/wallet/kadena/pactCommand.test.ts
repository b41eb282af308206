import { describe, expect, it } from 'vitest';
import { readJsonExact, verifyPactCommand } from '../../testing/pactVerifier.js';
import { localCmd, pactHash, publicKeyOf, signCommand, transferCreateCmd } from './pactCommand.js';

/** kadena-io/pact @ ebad60e2d17a1e5c1635a3929d730b1dbaa6e587 tests/sign-scripts/addSigsExpected.yaml: its cmd and hash. */
const REAL_CMD = String.raw`{"networkId":null,"payload":{"exec":{"data":null,"code":"(test.run-escrow \"Alice\" \"Bob\")"}},"signers":[{"pubKey":"7d0c9ba189927df85c8c54f8b5c8acd76c1d27e923abbf25a957afdf25550804","clist":[{"args":["Alice"],"name":"accounts.USER_GUARD"}]}],"meta":{"creationTime":0,"ttl":0,"gasLimit":0,"chainId":"","gasPrice":0,"sender":""},"nonce":"just-sign-exec"}`;

/** RFC 8032, section 7.1, TEST 1: an ed25519 secret key and its public key. */
const RFC8032_SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RECEIVER = `k:${'ab'.repeat(32)}`;

const transfer = (amount: bigint) =>
  transferCreateCmd({
    networkId: 'mainnet01',
    chainId: '3',
    sender: `k:${RFC8032_PUBLIC}`,
    senderPublicKey: RFC8032_PUBLIC,
    receiver: RECEIVER,
    amount,
    gasLimit: 2500,
    gasPrice: 10_000n,
    creationTime: 1_764_000_000,
    ttlSeconds: 7200,
    nonce: 'n-1',
  });

describe('pactHash', () => {
  it('is the request key Pact gives a real command (unpadded base64url blake2b-256 of cmd)', () => {
    expect(pactHash(REAL_CMD)).toBe('i1S2rUgEyfBl393oWEwts3DzuyCvraemXA9A1Bno6sg');
  });
});

describe('signCommand', () => {
  it('derives the RFC 8032 public key and signs the hash bytes so that an independent ed25519 check accepts it', () => {
    expect(publicKeyOf(RFC8032_SECRET)).toBe(RFC8032_PUBLIC);
    const command = signCommand(transfer(1_500_000_000_000n), [RFC8032_SECRET]);
    expect(command.hash).toBe(pactHash(command.cmd));
    expect(command.sigs[0]?.sig).toMatch(/^[0-9a-f]{128}$/);
    // The stand-in's verifier (node:crypto ed25519, its own JSON reading) accepts it…
    expect(verifyPactCommand(readJsonExact(JSON.stringify(command))).hash).toBe(command.hash);
    // …and the signature is over this hash only.
    const other = signCommand(transfer(1_500_000_000_001n), [RFC8032_SECRET]);
    expect(() => verifyPactCommand({ ...command, sigs: other.sigs })).toThrow('The signature at position 0 is invalid');
  });
});

describe('transferCreateCmd', () => {
  it('builds the transfer-create exec, keyset data, scoped signer and meta with exact decimals', () => {
    const cmd = transfer(1_000_000_000_000n);
    const payload = JSON.parse(cmd);
    expect(payload).toEqual({
      networkId: 'mainnet01',
      payload: {
        exec: {
          data: { ks: { keys: ['ab'.repeat(32)], pred: 'keys-all' } },
          code: `(coin.transfer-create "k:${RFC8032_PUBLIC}" "${RECEIVER}" (read-keyset "ks") 1.0)`,
        },
      },
      signers: [
        {
          pubKey: RFC8032_PUBLIC,
          clist: [
            { name: 'coin.TRANSFER', args: [`k:${RFC8032_PUBLIC}`, RECEIVER, 1] },
            { name: 'coin.GAS', args: [] },
          ],
        },
      ],
      meta: {
        creationTime: 1_764_000_000,
        ttl: 7200,
        gasLimit: 2500,
        chainId: '3',
        gasPrice: 0.00000001,
        sender: `k:${RFC8032_PUBLIC}`,
      },
      nonce: 'n-1',
    });
    // The literals as written, digit for digit (a JSON number in a clist is a Pact decimal).
    expect(cmd).toContain(`"args":["k:${RFC8032_PUBLIC}","${RECEIVER}",1.0]`);
    expect(cmd).toContain('"gasPrice":0.00000001');
    expect(transfer(1n)).toContain(',0.000000000001]');
    expect(transfer(123_456_789_012_345_678_901n)).toContain(' 123456789.012345678901)');
  });

  it('refuses a zero amount', () => {
    expect(() => transfer(0n)).toThrow(RangeError);
  });

  it('builds a signer-less read for /local', () => {
    const cmd = localCmd(
      {
        networkId: 'mainnet01',
        chainId: '0',
        sender: 'k:aa',
        gasLimit: 1000,
        gasPrice: 1n,
        creationTime: 1,
        ttlSeconds: 600,
        nonce: 'x',
      },
      '(coin.get-balance "k:aa")',
    );
    expect(JSON.parse(cmd).signers).toEqual([]);
    expect(JSON.parse(cmd).payload.exec).toEqual({ data: {}, code: '(coin.get-balance "k:aa")' });
  });
});
