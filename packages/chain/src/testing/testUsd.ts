import { readFileSync } from 'node:fs';
import { type Abi, encodeDeployData, type Hex, hexToBigInt, isAddress, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmNode } from './evmNode.js';

/**
 * TestUsd, the USDC stand-in of the EVM tests: fixtures/evm/TestUsd.sol compiled by solc-js 0.8.37 with
 * the settings written in fixtures/evm/TestUsd.json (testUsdArtifact.int.test.ts recompiles it and fails
 * if the checked-in artifact differs from what its source gives). Not for production code.
 */

export interface SolcArtifact {
  contractName: string;
  sourceName: string;
  compiler: { version: string; settings: Record<string, unknown> };
  abi: Abi;
  bytecode: Hex;
}

export const TEST_USD_DECIMALS = 6;

export function testUsdArtifact(): SolcArtifact {
  return JSON.parse(readFileSync(new URL('./fixtures/evm/TestUsd.json', import.meta.url), 'utf8')) as SolcArtifact;
}

/**
 * Deploys TestUsd from the account of `deployerKey` (the node's first funded key by default), which
 * receives the whole `supply` (token units, 10^-6 TUSD). Mines the block itself when automine is off.
 */
export async function deployTestUsd(node: EvmNode, options: { supply: bigint; deployerKey?: Hex }): Promise<Hex> {
  const key = options.deployerKey ?? node.fundedKeys[0];
  if (key === undefined) throw new Error('the node has no funded key to deploy TestUsd from');
  const account = privateKeyToAccount(key);
  const artifact = testUsdArtifact();
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: [options.supply] });
  const quantity = async (method: string, params: unknown[]): Promise<bigint> =>
    hexToBigInt((await node.rpc(method, params)) as Hex);
  const [nonce, gas, gasPrice] = await Promise.all([
    quantity('eth_getTransactionCount', [account.address, 'pending']),
    quantity('eth_estimateGas', [{ from: account.address, data }]),
    quantity('eth_gasPrice', []),
  ]);
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: node.chainId,
    nonce: Number(nonce),
    gas,
    maxFeePerGas: gasPrice * 2n,
    maxPriorityFeePerGas: gasPrice,
    data,
  });
  const hash = keccak256(raw);
  await node.rpc('eth_sendRawTransaction', [raw]);
  let receipt = (await node.rpc('eth_getTransactionReceipt', [hash])) as { contractAddress?: Hex; status?: Hex } | null;
  if (receipt === null) {
    await node.mine(1);
    receipt = (await node.rpc('eth_getTransactionReceipt', [hash])) as typeof receipt;
  }
  const address = receipt?.contractAddress;
  if (receipt?.status !== '0x1' || address === undefined || !isAddress(address, { strict: false })) {
    throw new Error(`TestUsd was not deployed: ${JSON.stringify(receipt)}`);
  }
  return address;
}
