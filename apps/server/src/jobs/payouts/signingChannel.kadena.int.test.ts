import { randomBytes } from 'node:crypto';
import { KadenaWallet } from '@lodestone/chain';
import { startChainwebNode } from '@lodestone/chain/testing';
import { ed25519 } from '@noble/curves/ed25519.js';
import { describeSigningPayouts } from './signingChannel.cases.js';

/**
 * The payout engine with the Kadena wallet against the stand-in chainweb node, whose Pact API checks
 * each command's hash, ed25519 signatures, network, chain and times with its own verifier, and runs
 * its transfer-create in the chain's next block.
 */

const KDA = 1_000_000_000_000n;
const CHAIN = 3;

describeSigningPayouts('KDA on the stand-in chainweb node', async () => {
  const node = await startChainwebNode();
  // Fresh heads: a block judges a command's times against its parent's creation time.
  node.advanceCut();
  const options = (baseUrl: string) => ({
    coin: 'KDA' as const,
    baseUrl,
    p2pUrl: baseUrl,
    networkId: 'mainnet01',
    chainId: CHAIN,
    privateKey: randomBytes(32).toString('hex'),
    confirmations: 3,
    timeoutMs: 2000,
  });
  const pool = options(node.url);
  const wallet = new KadenaWallet(pool);
  node.pact.fund(CHAIN, wallet.address, 1_000n * KDA);
  return {
    coin: 'KDA',
    wallet,
    offlineWallet: new KadenaWallet({ ...pool, baseUrl: 'http://127.0.0.1:1', p2pUrl: 'http://127.0.0.1:1' }),
    newAddress: async () => `k:${Buffer.from(ed25519.getPublicKey(randomBytes(32))).toString('hex')}`,
    // A named account: the pool cannot write the guard transfer-create needs for it.
    invalidAddress: 'miner-bob',
    received: async (address) => node.pact.balance(CHAIN, address) ?? 0n,
    mine: async (blocks) => node.advanceCut(blocks),
    unit: 2n * KDA,
    stop: () => node.close(),
  };
});
