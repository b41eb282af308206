import { EvmWallet } from '@lodestone/chain';
import { deployTestUsd, type EvmNode, startEvmNode, TEST_USD_DECIMALS } from '@lodestone/chain/testing';
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  parseEther,
  parseGwei,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describeSigningPayouts, type SigningChain } from './signingChannel.cases.js';

/**
 * The payout engine with the ETH and USDC wallets against a real EVM node (Hardhat 2's EDR), the
 * payout's coins really moving: each case of signingChannel.cases.ts, crashes at every step included.
 */

const CONFIRMATIONS = 3;

async function quantity(node: EvmNode, method: string, params: unknown[]): Promise<bigint> {
  return hexToBigInt((await node.rpc(method, params)) as Hex);
}

/** Sends `value` wei from one of the node's funded accounts (automine mines it). */
async function fund(node: EvmNode, to: Address, value: bigint): Promise<void> {
  const account = privateKeyToAccount(node.fundedKeys[0] as Hex);
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: node.chainId,
    nonce: Number(await quantity(node, 'eth_getTransactionCount', [account.address, 'pending'])),
    gas: 21_000n,
    maxFeePerGas: parseGwei('50'),
    maxPriorityFeePerGas: parseGwei('1'),
    to,
    value,
  });
  await node.rpc('eth_sendRawTransaction', [raw]);
}

function evmChain(coin: 'ETH' | 'USDC'): () => Promise<SigningChain & { stop(): Promise<void> }> {
  return async () => {
    const node = await startEvmNode();
    const poolKey = generatePrivateKey();
    const pool = privateKeyToAccount(poolKey).address;
    await fund(node, pool, parseEther('50'));
    // The pool deploys the token, so it holds the whole supply: 1,000 TUSD.
    const token =
      coin === 'USDC' ? await deployTestUsd(node, { supply: 1_000n * 10n ** 6n, deployerKey: poolKey }) : undefined;
    const options = (rpcUrl: string) => ({
      coin,
      feeCoin: 'ETH',
      rpcUrl,
      privateKey: poolKey,
      chainId: node.chainId,
      confirmations: CONFIRMATIONS,
      maxFeePerGas: parseGwei('100'),
      ...(token ? { token: { address: token, decimals: TEST_USD_DECIMALS } } : {}),
    });
    const received = async (address: string): Promise<bigint> => {
      if (!token) return quantity(node, 'eth_getBalance', [address, 'latest']);
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] });
      const result = (await node.rpc('eth_call', [{ to: token, data }, 'latest'])) as Hex;
      return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: result });
    };
    return {
      coin,
      wallet: new EvmWallet(options(node.url)),
      offlineWallet: new EvmWallet(options('http://127.0.0.1:1')),
      newAddress: async () => privateKeyToAccount(generatePrivateKey()).address,
      // A mistyped checksum: the wallet refuses it rather than pay an address nobody controls.
      invalidAddress: '0x52908400098527886E0F7030069857D2E4169Ee7',
      received,
      mine: (blocks) => node.mine(blocks),
      reorg: { mark: () => node.snapshot(), undo: (mark) => node.revert(mark) },
      stall: { hold: () => node.setAutomine(false), release: () => node.setAutomine(true) },
      unit: coin === 'ETH' ? parseEther('0.01') : 2n * 10n ** 6n,
      stop: () => node.stop(),
    };
  };
}

describeSigningPayouts('ETH on a real EVM node', evmChain('ETH'));
describeSigningPayouts('USDC (a 6-decimal ERC-20) on a real EVM node, gas paid in ETH', evmChain('USDC'));
