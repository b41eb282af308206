import { randomBytes } from 'node:crypto';
import { ccc } from '@ckb-ccc/core';
import { CkbWallet } from '@lodestone/chain';
import { STAND_IN_SECP256K1_DEP_GROUP, startCkbNode } from '@lodestone/chain/testing';
import { describeSigningPayouts } from './signingChannel.cases.js';

/**
 * The payout engine with the CKB wallet against the stand-in CKB node, which resolves every input,
 * checks the sighash-all signature, occupied capacity and fee rate with its own verifier, and commits
 * the transaction in its next block.
 */

const CKB = 100_000_000n;
// RFC 0024's secp256k1-blake160 sighash-all type script (docs/coins/ckb.md).
const SIGHASH_ALL = '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8';

describeSigningPayouts('CKB on the stand-in CKB node', async () => {
  const node = await startCkbNode({ transactions: 0 });
  const options = (rpcUrl: string) => ({
    coin: 'CKB' as const,
    rpcUrl,
    privateKey: `0x${randomBytes(32).toString('hex')}`,
    network: 'ckt' as const,
    confirmations: 4,
    secp256k1CellDep: { txHash: STAND_IN_SECP256K1_DEP_GROUP.tx_hash, index: 0 },
    timeoutMs: 2000,
  });
  const pool = options(node.url);
  const wallet = new CkbWallet(pool);
  node.fund(
    wallet.lock,
    Array.from({ length: 20 }, () => 2_000n * CKB),
  );
  const locks = new Map<string, { code_hash: string; hash_type: 'type'; args: string }>();
  return {
    coin: 'CKB',
    wallet,
    offlineWallet: new CkbWallet({ ...pool, rpcUrl: 'http://127.0.0.1:1' }),
    newAddress: async () => {
      const args = `0x${randomBytes(20).toString('hex')}`;
      const address = ccc.Address.from({
        script: { codeHash: SIGHASH_ALL, hashType: 'type', args },
        prefix: 'ckt',
      }).toString();
      locks.set(address, { code_hash: SIGHASH_ALL, hash_type: 'type', args });
      return address;
    },
    // A mainnet address: the testnet wallet must not pay it.
    invalidAddress: 'ckb1qzda0cr08m85hc8jlnfp3zer7xulejywt49kt2rr0vthywaa50xwsqdnnw7qkdnnclfkg59uzn8umtfd2kwxceqxwquc4',
    received: async (address) => {
      const lock = locks.get(address);
      if (!lock) throw new Error(`not an address of this test: ${address}`);
      return node.liveCells(lock).reduce((sum, cell) => sum + BigInt(cell.output.capacity), 0n);
    },
    mine: async (blocks) => void node.mine(blocks),
    // Bob's 40% of two units (160 CKB) stays above the 61 CKB a cell needs.
    unit: 200n * CKB,
    stop: () => node.close(),
  };
});
