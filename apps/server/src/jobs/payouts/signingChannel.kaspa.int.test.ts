import { randomBytes } from 'node:crypto';
import { encodeKaspaAddress, KaspaWallet } from '@lodestone/chain';
import { KaspaNodeStandIn } from '@lodestone/chain/testing';
import { schnorr } from '@noble/curves/secp256k1.js';
import { describeSigningPayouts } from './signingChannel.cases.js';

/**
 * The payout engine with the Kaspa wallet against the stand-in kaspad, which checks every submitted
 * transaction's signatures, masses and fee with its own verifier and accepts it in its next chain block.
 */

const KAS = 100_000_000n;
const PREFIX = 'kaspadev' as const;

describeSigningPayouts('KAS on the stand-in kaspad', async () => {
  const node = await KaspaNodeStandIn.start({ prefix: PREFIX });
  const options = (url: string) => ({
    url,
    privateKey: randomBytes(32).toString('hex'),
    prefix: PREFIX,
    confirmations: 5,
    timeoutMs: 2000,
  });
  const pool = options(node.url);
  const wallet = new KaspaWallet(pool);
  const offlineWallet = new KaspaWallet({ ...pool, url: 'ws://127.0.0.1:1' });
  // A few large outputs, as docs/money.md advises an operator to fund the wallet.
  node.fund(wallet.address, [5_000n * KAS, 5_000n * KAS, 5_000n * KAS]);
  return {
    coin: 'KAS',
    wallet,
    offlineWallet,
    newAddress: async () => encodeKaspaAddress(PREFIX, 0, schnorr.getPublicKey(randomBytes(32))),
    invalidAddress: 'kaspadev:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq',
    received: async (address) => node.balanceOf(address),
    mine: async (blocks) => void node.advance(blocks),
    unit: 5n * KAS,
    stop: async () => {
      await wallet.close();
      await offlineWallet.close();
      await node.close();
    },
  };
});
