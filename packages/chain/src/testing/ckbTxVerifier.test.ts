import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CkbJsonTransaction } from '../ckb/types.js';
import { occupiedCapacity, SighashRefusal, sighashAllSigner, sizeInBlock, transactionHash } from './ckbTxVerifier.js';

// A real signed mainnet transaction (fixtures/README.md): its hash as the explorer published it, its
// inputs' lock (decoded from their address), its fee.
const real = JSON.parse(readFileSync(new URL('./fixtures/ckb-mainnet-tx-79238be9.json', import.meta.url), 'utf8')) as {
  hash: string;
  fee: string;
  input_cells: { capacity: string; lock: { args: string } }[];
  transaction: CkbJsonTransaction;
};

describe('the stand-in CKB transaction verifier on a real mainnet transaction', () => {
  it('hashes it to the hash the chain gave it', () => {
    expect(transactionHash(real.transaction)).toBe(real.hash);
  });

  it('recovers the inputs lock args from the sighash-all signature over both inputs', () => {
    expect(sighashAllSigner(real.transaction, [0, 1])).toBe(real.input_cells[0]?.lock.args);
  });

  it('recovers another key once a byte of the transaction or of the signature changes', () => {
    const args = real.input_cells[0]?.lock.args;
    const outputs = real.transaction.outputs.map((o, i) => (i === 1 ? { ...o, capacity: '0x17a90e05dd' } : o));
    expect(sighashAllSigner({ ...real.transaction, outputs }, [0, 1])).not.toBe(args);
    const witness = real.transaction.witnesses[0] as string;
    const tampered = `${witness.slice(0, 60)}${witness[60] === '0' ? '1' : '0'}${witness.slice(61)}`;
    let signer: string | undefined;
    try {
      signer = sighashAllSigner({ ...real.transaction, witnesses: [tampered, '0x'] }, [0, 1]);
    } catch (error) {
      expect(error).toBeInstanceOf(SighashRefusal);
    }
    expect(signer).not.toBe(args);
    // The second witness is hashed too (length first), so it cannot be changed either.
    expect(sighashAllSigner({ ...real.transaction, witnesses: [witness, '0x00'] }, [0, 1])).not.toBe(args);
  });

  it('refuses a witness without a 65-byte lock with the script exit codes', () => {
    expect(() => sighashAllSigner({ ...real.transaction, witnesses: ['0x', '0x'] }, [0, 1])).toThrow(
      expect.objectContaining({ exitCode: -2 }),
    );
    // WitnessArgs { lock: Some(1 byte) }
    const short = '0x1500000010000000150000001500000001000000ff';
    expect(() => sighashAllSigner({ ...real.transaction, witnesses: [short, '0x'] }, [0, 1])).toThrow(
      expect.objectContaining({ exitCode: -22 }),
    );
  });

  it('pays exactly the fee the explorer shows and every output covers its occupied capacity', () => {
    const inputs = real.input_cells.reduce((sum, c) => sum + BigInt(c.capacity), 0n);
    const outputs = real.transaction.outputs.reduce((sum, o) => sum + BigInt(o.capacity), 0n);
    expect(inputs - outputs).toBe(BigInt(real.fee));
    // 61 bytes of a plain secp256k1-blake160 cell; the DAO deposit adds its type script (33) and 8 bytes of data.
    expect(occupiedCapacity(real.transaction.outputs[1] as never, '0x')).toBe(6_100_000_000n);
    expect(occupiedCapacity(real.transaction.outputs[0] as never, '0x0000000000000000')).toBe(10_200_000_000n);
    // Its fee rate: 3684 shannons over the size in a block, above the 1000 shannons/KB floor.
    expect((3684n * 1000n) / BigInt(sizeInBlock(real.transaction))).toBeGreaterThanOrEqual(1000n);
  });
});
