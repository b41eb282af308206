import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  decimalInUnits,
  ed25519Verifies,
  type JsonNumberText,
  PactRefusal,
  readCoinCall,
  readJsonExact,
  verifyPactCommand,
} from './pactVerifier.js';

/**
 * A real signed Pact command published by Kadena: kadena-io/pact @ ebad60e2d17a1e5c1635a3929d730b1dbaa6e587,
 * tests/sign-scripts/addSigsExpected.yaml (the `pact add-sig` golden output), copied byte for byte.
 */
const REAL_COMMAND = String.raw`{"hash":"i1S2rUgEyfBl393oWEwts3DzuyCvraemXA9A1Bno6sg","sigs":[{"sig":"c72ac57ac1f03cd264b4e0db1ef681894e42b02b5ddcb115ee2f776ba8048c2afd15a4c1e46b20248bb015ba395689a90ac93b5193173f3af6e495b4ce09ce03"}],"cmd":"{\"networkId\":null,\"payload\":{\"exec\":{\"data\":null,\"code\":\"(test.run-escrow \\\"Alice\\\" \\\"Bob\\\")\"}},\"signers\":[{\"pubKey\":\"7d0c9ba189927df85c8c54f8b5c8acd76c1d27e923abbf25a957afdf25550804\",\"clist\":[{\"args\":[\"Alice\"],\"name\":\"accounts.USER_GUARD\"}]}],\"meta\":{\"creationTime\":0,\"ttl\":0,\"gasLimit\":0,\"chainId\":\"\",\"gasPrice\":0,\"sender\":\"\"},\"nonce\":\"just-sign-exec\"}"}`;

const real = () => readJsonExact(REAL_COMMAND) as { hash: string; sigs: { sig: string }[]; cmd: string };

describe('pactVerifier on a real signed command (kadena-io/pact tests/sign-scripts)', () => {
  it('accepts its hash and its signature, and reads its payload', () => {
    const verified = verifyPactCommand(readJsonExact(REAL_COMMAND));
    expect(verified.hash).toBe('i1S2rUgEyfBl393oWEwts3DzuyCvraemXA9A1Bno6sg');
    expect(verified.payload.code).toBe('(test.run-escrow "Alice" "Bob")');
    expect(verified.payload.signers).toEqual([
      {
        pubKey: '7d0c9ba189927df85c8c54f8b5c8acd76c1d27e923abbf25a957afdf25550804',
        clist: [{ name: 'accounts.USER_GUARD', args: ['Alice'] }],
      },
    ]);
    expect(verified.payload.nonce).toBe('just-sign-exec');
  });

  it('refuses a changed cmd (the hash no longer matches)', () => {
    const command = real();
    const changed = { ...command, cmd: command.cmd.replace('Bob', 'Eve') };
    expect(() => verifyPactCommand(changed)).toThrow('Invalid transaction hash');
  });

  it('refuses a changed signature, a missing one, and a cmd re-hashed without re-signing', () => {
    const command = real();
    const flipped = `${command.sigs[0]?.sig.slice(0, 10)}${command.sigs[0]?.sig[10] === '0' ? '1' : '0'}${command.sigs[0]?.sig.slice(11)}`;
    expect(() => verifyPactCommand({ ...command, sigs: [{ sig: flipped }] })).toThrow(
      'The signature at position 0 is invalid',
    );
    expect(() => verifyPactCommand({ ...command, sigs: [] })).toThrow('Number of signers: 1. Number of signatures: 0.');
    expect(
      ed25519Verifies(
        '7d0c9ba189927df85c8c54f8b5c8acd76c1d27e923abbf25a957afdf25550804',
        Buffer.alloc(32),
        command.sigs[0]?.sig ?? '',
      ),
    ).toBe(false);
  });
});

describe('readJsonExact', () => {
  it('keeps number literals as their text', () => {
    const value = readJsonExact('{"a":[0.000000000001,1e-12,12345678901234567890.123456789012],"b":"x"}') as {
      a: JsonNumberText[];
    };
    expect(value.a.map((n) => n.text)).toEqual(['0.000000000001', '1e-12', '12345678901234567890.123456789012']);
  });

  it('refuses what is not JSON', () => {
    expect(() => readJsonExact('{"a":1,}')).toThrow(SyntaxError);
    expect(() => readJsonExact('{"a":1} x')).toThrow(SyntaxError);
  });
});

describe('readCoinCall', () => {
  it('reads the transfer-create form with its decimal exactly', () => {
    const call = readCoinCall('(coin.transfer-create "k:aa" "k:bb" (read-keyset "ks") 0.000000000001)');
    expect(call).toEqual({
      fn: 'transfer-create',
      sender: 'k:aa',
      receiver: 'k:bb',
      keysetName: 'ks',
      amount: { mantissa: 1n, scale: 12 },
    });
    expect(readCoinCall('(coin.get-balance "k:aa")')).toEqual({ fn: 'get-balance', account: 'k:aa' });
  });

  it('refuses other code with a Pact-style error', () => {
    for (const code of [
      '(coin.transfer "k:aa" "k:bb" 1.0)',
      '(coin.transfer-create "k:aa" "k:bb" (read-keyset "ks") 1)',
      '(coin.get-balance "k:aa") (coin.get-balance "k:bb")',
      '(coin.get-balance "k:aa"',
    ]) {
      expect(() => readCoinCall(code), code).toThrow(PactRefusal);
    }
  });

  it('compares decimals by value and converts them to 12-place units only when exact', () => {
    expect(compareDecimals({ mantissa: 10n, scale: 1 }, { mantissa: 1n, scale: 0 })).toBe(0);
    expect(decimalInUnits({ mantissa: 15n, scale: 1 }, 12)).toBe(1_500_000_000_000n);
    expect(decimalInUnits({ mantissa: 1n, scale: 13 }, 12)).toBeUndefined();
  });
});
