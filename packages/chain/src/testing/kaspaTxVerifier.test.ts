import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../kaspa/json.js';
import { type TransactionFields, transactionIdV0 } from './kaspaHashing.js';
import {
  readRpcTransaction,
  type VerifierEntry,
  type VerifierTransaction,
  verifierMinimumFee,
  verifierSignatureHash,
  verifierStorageMass,
  verifyTransaction,
} from './kaspaTxVerifier.js';

/**
 * The stand-in's verifier against kaspanet/rusty-kaspa's own data, commit
 * 593399eb0187764c11f7f5c3729ae63d4c8e6505:
 * - consensus/core/src/hashing/sighash.rs `test_signature_hash`: every version-0 vector;
 * - consensus/core/src/mass/mod.rs `test_storage_mass`;
 * - mining/src/mempool/check_transaction_standard.rs `test_calc_min_required_tx_relay_fee`;
 * - testing/integration/testdata/dags_for_json_tests/goref-1060-tx-265-blocks/blocks.json.gz: six
 *   signed transactions of the Go reference node's DAG with the transactions they spend
 *   (fixtures/kaspa/goref-signed-transactions.jsonl; `line` is the block's position after the params line).
 */

const PREV = '880eb9819a31821d9d2399e2f35e2433b72637e393d71ecc9b8d0250f49153c3';
const SPK_1 = Buffer.from('208325613d2eeaf7176ac6c670b13c0043156c427438ed72d74b7800862ad884e8ac', 'hex');
const SPK_2 = Buffer.from('20fcef4c106cf11135bbd70f02a726a92162d2fb8b22f0469126f800862ad884e8ac', 'hex');

function nativeTx(): VerifierTransaction {
  return {
    version: 0,
    inputs: [0, 1, 2].map((i) => ({
      transactionId: PREV,
      index: i,
      signatureScript: new Uint8Array(),
      sequence: BigInt(i),
      sigOpCount: 0,
      computeBudget: 0,
    })),
    outputs: [
      { value: 300n, spkVersion: 0, script: SPK_2 },
      { value: 300n, spkVersion: 0, script: SPK_1 },
    ],
    lockTime: 1615462089000n,
    subnetworkId: new Uint8Array(20),
    gas: 0n,
    payload: new Uint8Array(),
  };
}

function nativeEntries(): { amount: bigint; spkVersion: number; script: Uint8Array }[] {
  return [
    { amount: 100n, spkVersion: 0, script: SPK_1 },
    { amount: 200n, spkVersion: 0, script: SPK_2 },
    { amount: 300n, spkVersion: 0, script: SPK_2 },
  ];
}

type Action = (tx: VerifierTransaction, entries: ReturnType<typeof nativeEntries>) => void;
const none: Action = () => undefined;
const subnetwork: Action = (tx) => {
  tx.subnetworkId = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  tx.gas = 250n;
  tx.payload = Uint8Array.from([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
};
const then =
  (...actions: Action[]): Action =>
  (tx, e) => {
    for (const a of actions) a(tx, e);
  };
const output1: Action = (tx) => {
  (tx.outputs[1] as VerifierTransaction['outputs'][number]).value = 100n;
};
const input =
  (i: number): Action =>
  (tx) => {
    (tx.inputs[i] as VerifierTransaction['inputs'][number]).index = 2;
  };
const sequence =
  (i: number): Action =>
  (tx) => {
    (tx.inputs[i] as VerifierTransaction['inputs'][number]).sequence = 12345n;
  };
const payload: Action = (tx) => {
  tx.payload = Uint8Array.from([6, 6, 6, 4, 2, 0, 1, 3, 3, 7]);
};

// [name, hash type, input index, modification, expected] — the version-0 rows of test_signature_hash.
const ALL = 0x01;
const NONE = 0x02;
const SINGLE = 0x04;
const ACP = 0x80;
const VECTORS: [string, number, number, Action, string][] = [
  ['native-all-0', ALL, 0, none, '03b7ac6927b2b67100734c3cc313ff8c2e8b3ce3e746d46dd660b706a916b1f5'],
  ['native-all-0-modify-input-1', ALL, 0, input(1), 'a9f563d86c0ef19ec2e4f483901d202e90150580b6123c3d492e26e7965f488c'],
  ['native-all-0-modify-output-1', ALL, 0, output1, 'aad2b61bd2405dfcf7294fc2be85f325694f02dda22d0af30381cb50d8295e0a'],
  [
    'native-all-0-modify-sequence-1',
    ALL,
    0,
    sequence(1),
    '0818bd0a3703638d4f01014c92cf866a8903cab36df2fa2506dc0d06b94295e8',
  ],
  ['native-all-anyonecanpay-0', ALL | ACP, 0, none, '24821e466e53ff8e5fa93257cb17bb06131a48be4ef282e87f59d2bdc9afebc2'],
  [
    'native-all-anyonecanpay-0-modify-input-0',
    ALL | ACP,
    0,
    input(0),
    'd09cb639f335ee69ac71f2ad43fd9e59052d38a7d0638de4cf989346588a7c38',
  ],
  [
    'native-all-anyonecanpay-0-modify-input-1',
    ALL | ACP,
    0,
    input(1),
    '24821e466e53ff8e5fa93257cb17bb06131a48be4ef282e87f59d2bdc9afebc2',
  ],
  [
    'native-all-anyonecanpay-0-modify-sequence',
    ALL | ACP,
    0,
    sequence(1),
    '24821e466e53ff8e5fa93257cb17bb06131a48be4ef282e87f59d2bdc9afebc2',
  ],
  ['native-none-0', NONE, 0, none, '38ce4bc93cf9116d2e377b33ff8449c665b7b5e2f2e65303c543b9afdaa4bbba'],
  [
    'native-none-0-modify-output-1',
    NONE,
    0,
    output1,
    '38ce4bc93cf9116d2e377b33ff8449c665b7b5e2f2e65303c543b9afdaa4bbba',
  ],
  [
    'native-none-0-modify-sequence-0',
    NONE,
    0,
    sequence(0),
    'd9efdd5edaa0d3fd0133ee3ab731d8c20e0a1b9f3c0581601ae2075db1109268',
  ],
  [
    'native-none-0-modify-sequence-1',
    NONE,
    0,
    sequence(1),
    '38ce4bc93cf9116d2e377b33ff8449c665b7b5e2f2e65303c543b9afdaa4bbba',
  ],
  [
    'native-none-anyonecanpay-0',
    NONE | ACP,
    0,
    none,
    '06aa9f4239491e07bb2b6bda6b0657b921aeae51e193d2c5bf9e81439cfeafa0',
  ],
  [
    'native-none-anyonecanpay-0-modify-amount-spent',
    NONE | ACP,
    0,
    (_tx, e) => {
      (e[0] as (typeof e)[number]).amount = 666n;
    },
    'f07f45f3634d3ea8c0f2cb676f56e20993edf9be07a83bf0dfdb3debcf1441bf',
  ],
  [
    'native-none-anyonecanpay-0-modify-script-public-key',
    NONE | ACP,
    0,
    (_tx, e) => {
      const entry = e[0] as (typeof e)[number];
      entry.script = Uint8Array.from([...entry.script, 1, 2, 3]);
    },
    '20a525c54dc33b2a61201f05233c086dbe8e06e9515775181ed96550b4f2d714',
  ],
  ['native-single-0', SINGLE, 0, none, '44a0b407ff7b239d447743dd503f7ad23db5b2ee4d25279bd3dffaf6b474e005'],
  [
    'native-single-0-modify-output-1',
    SINGLE,
    0,
    output1,
    '44a0b407ff7b239d447743dd503f7ad23db5b2ee4d25279bd3dffaf6b474e005',
  ],
  [
    'native-single-0-modify-sequence-0',
    SINGLE,
    0,
    sequence(0),
    '83796d22879718eee1165d4aace667bb6778075dab579c32c57be945f466a451',
  ],
  [
    'native-single-0-modify-sequence-1',
    SINGLE,
    0,
    sequence(1),
    '44a0b407ff7b239d447743dd503f7ad23db5b2ee4d25279bd3dffaf6b474e005',
  ],
  [
    'native-single-2-no-corresponding-output',
    SINGLE,
    2,
    none,
    '022ad967192f39d8d5895d243e025ec14cc7a79708c5e364894d4eff3cecb1b0',
  ],
  [
    'native-single-2-no-corresponding-output-modify-output-1',
    SINGLE,
    2,
    output1,
    '022ad967192f39d8d5895d243e025ec14cc7a79708c5e364894d4eff3cecb1b0',
  ],
  [
    'native-single-anyonecanpay-0',
    SINGLE | ACP,
    0,
    none,
    '43b20aba775050cf9ba8d5e48fc7ed2dc6c071d23f30382aea58b7c59cfb8ed7',
  ],
  [
    'native-single-anyonecanpay-2-no-corresponding-output',
    SINGLE | ACP,
    2,
    none,
    '846689131fb08b77f83af1d3901076732ef09d3f8fdff945be89aa4300562e5f',
  ],
  ['native-all-0-modify-payload', ALL, 0, payload, '72ea6c2871e0f44499f1c2b556f265d9424bfea67cca9cb343b4b040ead65525'],
  ['subnetwork-all-0', ALL, 0, subnetwork, 'b2f421c933eb7e1a91f1d9e1efa3f120fe419326c0dbac487752189522550e0c'],
  [
    'subnetwork-all-modify-payload',
    ALL,
    0,
    then(subnetwork, payload),
    '12ab63b9aea3d58db339245a9b6e9cb6075b2253615ce0fb18104d28de4435a1',
  ],
  [
    'subnetwork-all-modify-gas',
    ALL,
    0,
    then(subnetwork, (tx) => {
      tx.gas = 1234n;
    }),
    '2501edfc0068d591160c4bd98646c6e6892cdc051182a8be3ccd6d67f104fd17',
  ],
  [
    'subnetwork-all-subnetwork-id',
    ALL,
    0,
    then(subnetwork, (tx) => {
      tx.subnetworkId = Uint8Array.from([6, 6, 6, 4, 2, 0, 1, 3, 3, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }),
    'a5d1230ede0dfcfd522e04123a7bcd721462fed1d3a87352031a4f6e3c4389b6',
  ],
];

describe('stand-in kaspad verifier: sighash (rusty-kaspa test_signature_hash, version 0)', () => {
  it.each(VECTORS)('%s', (_name, hashType, index, action, expected) => {
    const tx = nativeTx();
    const entries = nativeEntries();
    action(tx, entries);
    const hash = verifierSignatureHash(tx, index, entries[index] as (typeof entries)[number], hashType);
    expect(Buffer.from(hash).toString('hex')).toBe(expected);
  });
});

describe('stand-in kaspad verifier: KIP-9 storage mass (rusty-kaspa mass/mod.rs test_storage_mass)', () => {
  // generate_tx_from_amounts uses empty scripts: plurality 1 everywhere.
  const cells = (amounts: bigint[]) => amounts.map((amount) => ({ amount, scriptLength: 0 }));
  const C = 10n ** 12n;
  const KAS = 100_000_000n;

  it('compounding 3 → 2 symmetric outputs is free; asymmetry costs the harmonic difference', () => {
    expect(verifierStorageMass(cells([100n, 200n, 300n]), cells([300n, 300n]))).toBe(0n);
    expect(verifierStorageMass(cells([100n, 200n, 300n]), cells([50n, 550n]))).toBe(
      C / 50n + C / 550n - 3n * (C / 200n),
    );
  });

  it('more outputs than inputs, at C per output and below', () => {
    const base = 10_000n * KAS;
    expect(verifierStorageMass(cells([base, base, base * 2n]), cells([base, base, base, base]))).toBe(4n);
    expect(verifierStorageMass(cells([base, base, base * 2n]), cells([10n * KAS, base, base, base]))).toBe(1003n);
    expect(
      verifierStorageMass(cells([base + 4n, base, base * 2n]), cells([base + 1n, base + 1n, base + 1n, base + 1n])),
    ).toBe(0n);
  });

  it('the relaxed 2:2 and 2:1 formulas', () => {
    expect(verifierStorageMass(cells([100n, 200n]), cells([50n, 250n]))).toBe(9_000_000_000n);
    expect(verifierStorageMass(cells([100n, 200n]), cells([100n, 200n]))).toBe(0n);
    expect(verifierStorageMass(cells([100n, 200n]), cells([50n]))).toBe(5_000_000_000n);
  });
});

describe('stand-in kaspad verifier: relay fee (check_transaction_standard.rs test_calc_min_required_tx_relay_fee)', () => {
  it.each([
    [250n, 3n, 3n],
    [100n, 100_000n, 10_000n],
    [500_000n, 100_000n, 50_000_000n],
    [1500n, 5000n, 7500n],
    [1500n, 3000n, 4500n],
    [782n, 5000n, 3910n],
    [782n, 3000n, 2346n],
    [782n, 2550n, 1994n],
  ])('mass %d at %d sompi/kg → %d', (mass, rate, want) => {
    expect(verifierMinimumFee(mass, rate)).toBe(want);
  });
});

interface Cut {
  line: number;
  spending: TransactionFields;
  funding: TransactionFields[];
}
const SIGNED = readFileSync(new URL('./fixtures/kaspa/goref-signed-transactions.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => parseJsonExact(line) as Cut);

function entriesOf(cut: Cut): VerifierEntry[] {
  return cut.spending.inputs.map((input, i) => {
    const funding = readRpcTransaction(cut.funding[i]);
    const out = funding.outputs[input.previousOutpoint.index] as VerifierTransaction['outputs'][number];
    return { amount: out.value, spkVersion: out.spkVersion, script: out.script, blockDaaScore: 0n, isCoinbase: false };
  });
}

describe('stand-in kaspad verifier: real signed transactions (goref DAG)', () => {
  it.each(SIGNED.map((cut) => [cut.line, cut] as const))(
    'block %i: ids, signatures, and a tampered copy',
    (_line, cut) => {
      // The spent outpoints name the funding transactions by id: the stand-in's id hashing reproduces them.
      cut.spending.inputs.forEach((input, i) => {
        expect(transactionIdV0(cut.funding[i] as TransactionFields)).toBe(input.previousOutpoint.transactionId);
      });
      const tx = readRpcTransaction(cut.spending);
      const entries = entriesOf(cut);
      // The goref DAG ran with a tiny storage mass parameter and no relay fee: check the scripts alone.
      const context = { id: transactionIdV0(cut.spending), entries, virtualDaaScore: 10n ** 9n, coinbaseMaturity: 0n };
      const run = (t: VerifierTransaction) => {
        try {
          verifyTransaction(t, context);
          return 'accepted';
        } catch (error) {
          return (error as Error).message;
        }
      };
      const verdict = run(tx);
      // Every check up to the scripts passes; the Go node's test DAG paid a sompi or two, below today's relay floor.
      expect(verdict).toMatch(
        /is not standard: transaction has \d fees which is under the required amount of 203600 for compute mass 2036/,
      );
      const forged = readRpcTransaction(cut.spending);
      (forged.outputs[0] as VerifierTransaction['outputs'][number]).value -= 1n;
      expect(run(forged)).toMatch(
        /failed to verify the signature script: false stack entry at end of script execution/,
      );
      const flipped = readRpcTransaction(cut.spending);
      const script = (flipped.inputs[0] as VerifierTransaction['inputs'][number]).signatureScript;
      script[10] = (script[10] as number) ^ 1;
      expect(run(flipped)).toMatch(/false stack entry/);
    },
  );
});
