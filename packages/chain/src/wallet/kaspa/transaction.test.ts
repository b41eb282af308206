import { schnorr } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { decodeKaspaAddress, encodeKaspaAddress } from '../../addresses/kaspa.js';
import {
  type ScriptPublicKey,
  type SpentOutput,
  scriptFromJson,
  signatureHashAll,
  type Transaction,
  transactionId,
  transactionToJson,
} from './transaction.js';

/**
 * kaspanet/rusty-kaspa at commit 593399eb0187764c11f7f5c3729ae63d4c8e6505:
 * - consensus/core/src/hashing/sighash.rs `test_signature_hash`: the version-0 SIG_HASH_ALL rows of a
 *   native transaction (the pool signs nothing else);
 * - consensus/core/src/hashing/tx.rs `test_transaction_hashing`: the ids of version-0 native transactions;
 * - crypto/addresses/src/lib.rs tests: mainnet pay-to-pubkey addresses.
 */

const PREV = '880eb9819a31821d9d2399e2f35e2433b72637e393d71ecc9b8d0250f49153c3';
const spk = (hex: string): ScriptPublicKey => ({ version: 0, script: Buffer.from(hex, 'hex') });
const SPK_1 = spk('208325613d2eeaf7176ac6c670b13c0043156c427438ed72d74b7800862ad884e8ac');
const SPK_2 = spk('20fcef4c106cf11135bbd70f02a726a92162d2fb8b22f0469126f800862ad884e8ac');

function nativeTx(): Transaction {
  return {
    inputs: [0, 1, 2].map((i) => ({
      txid: PREV,
      index: i,
      sequence: BigInt(i),
      sigOpCount: 0,
      signatureScript: new Uint8Array(),
    })),
    outputs: [
      { value: 300n, scriptPublicKey: SPK_2 },
      { value: 300n, scriptPublicKey: SPK_1 },
    ],
    lockTime: 1615462089000n,
    storageMass: 0n,
  };
}
const SPENT: SpentOutput[] = [
  { amount: 100n, scriptPublicKey: SPK_1 },
  { amount: 200n, scriptPublicKey: SPK_2 },
  { amount: 300n, scriptPublicKey: SPK_2 },
];

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('Kaspa signature hash, SigHashAll (rusty-kaspa test_signature_hash)', () => {
  it.each([
    [
      'native-all-0',
      (_tx: Transaction) => undefined,
      '03b7ac6927b2b67100734c3cc313ff8c2e8b3ce3e746d46dd660b706a916b1f5',
    ],
    [
      'native-all-0-modify-input-1',
      (tx: Transaction) => {
        (tx.inputs[1] as Transaction['inputs'][number]).index = 2;
      },
      'a9f563d86c0ef19ec2e4f483901d202e90150580b6123c3d492e26e7965f488c',
    ],
    [
      'native-all-0-modify-output-1',
      (tx: Transaction) => {
        (tx.outputs[1] as Transaction['outputs'][number]).value = 100n;
      },
      'aad2b61bd2405dfcf7294fc2be85f325694f02dda22d0af30381cb50d8295e0a',
    ],
    [
      'native-all-0-modify-sequence-1',
      (tx: Transaction) => {
        (tx.inputs[1] as Transaction['inputs'][number]).sequence = 12345n;
      },
      '0818bd0a3703638d4f01014c92cf866a8903cab36df2fa2506dc0d06b94295e8',
    ],
  ])('%s', (_name, modify, expected) => {
    const tx = nativeTx();
    modify(tx);
    expect(hex(signatureHashAll(tx, 0, SPENT[0] as SpentOutput))).toBe(expected);
  });

  it('native-all-0-modify-compute-mass-1: a version-0 input without a sig-op count hashes as count 0', () => {
    expect(hex(signatureHashAll(nativeTx(), 0, SPENT[0] as SpentOutput))).toBe(
      '03b7ac6927b2b67100734c3cc313ff8c2e8b3ce3e746d46dd660b706a916b1f5',
    );
  });

  it('signatures and the storage mass field leave the id alone; the signature verifies over the hash', () => {
    const tx = nativeTx();
    const id = transactionId(tx);
    const key = Uint8Array.from(Buffer.from('11'.repeat(32), 'hex'));
    const message = signatureHashAll(tx, 0, SPENT[0] as SpentOutput);
    const signature = schnorr.sign(message, key);
    (tx.inputs[0] as Transaction['inputs'][number]).signatureScript = Uint8Array.from([0x41, ...signature, 0x01]);
    tx.storageMass = 123n;
    expect(transactionId(tx)).toBe(id);
    expect(schnorr.verify(signature, message, schnorr.getPublicKey(key))).toBe(true);
  });
});

describe('Kaspa transaction id (rusty-kaspa test_transaction_hashing #1–#3: native, version 0, no gas)', () => {
  const inputs = (txid: string) => [
    { txid, index: 2, sequence: 7n, sigOpCount: 5, signatureScript: Uint8Array.of(1, 2) },
  ];
  const outputs = [{ value: 1564n, scriptPublicKey: { version: 7, script: Uint8Array.of(1, 2, 3, 4, 5) } }];
  const ZERO = '00'.repeat(32);
  it.each([
    [
      '#1 empty',
      { inputs: [], outputs: [], lockTime: 0n },
      '2c18d5e59ca8fc4c23d9560da3bf738a8f40935c11c162017fbf2c907b7e665c',
    ],
    [
      '#2 one input',
      { inputs: inputs(ZERO), outputs: [], lockTime: 0n },
      'b2d65ae36e123eb73f253176d7234a57656b84d0d60b9fc746ab0d0f085c9cc7',
    ],
    [
      '#3 and an output',
      { inputs: inputs(ZERO), outputs, lockTime: 0n },
      '67289b12146d1b5ef384332137399791a5cfe89506ff31688b0d95ae821d0a0c',
    ],
  ])('%s', (_name, fields, expected) => {
    expect(transactionId({ ...fields, storageMass: 0n } as Transaction)).toBe(expected);
  });
});

describe('Kaspa addresses and JSON', () => {
  it('encodes rusty-kaspa address vectors and decodes back', () => {
    expect(encodeKaspaAddress('kaspa', 0, new Uint8Array(32))).toBe(
      'kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e',
    );
    const payload = Buffer.from('5fff3c4da18f45adcdd499e44611e9fff148ba69db3c4ea2ddd955fc46a59522', 'hex');
    const address = encodeKaspaAddress('kaspa', 0, payload);
    expect(address).toBe('kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyqh70xmfj');
    expect(decodeKaspaAddress(address).payload.equals(payload)).toBe(true);
  });

  it('writes the RPC transaction with exact u64 fields and the script version big-endian', () => {
    const json = transactionToJson({ ...nativeTx(), storageMass: 9n });
    expect(json.storageMass).toBe(9n);
    expect(json.mass).toBe(9n);
    expect((json.outputs as { scriptPublicKey: string }[])[0]?.scriptPublicKey).toBe(`0000${hex(SPK_2.script)}`);
    expect(scriptFromJson('0007aabb')).toEqual({ version: 7, script: Buffer.from('aabb', 'hex') });
  });
});
