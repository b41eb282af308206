import { readFileSync } from 'node:fs';
import solc from 'solc';
import { describe, expect, it } from 'vitest';
import { testUsdArtifact } from './testUsd.js';

/**
 * The checked-in TestUsd artifact is exactly what solc-js 0.8.37 makes of TestUsd.sol with the settings
 * the artifact records. After editing the source, regenerate it with
 * `npx vitest run --project integration packages/chain/src/testing/testUsdArtifact -u`.
 */

interface StandardJsonOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string } } }>>;
}

describe('TestUsd artifact', () => {
  it('is what solc-js compiles from TestUsd.sol, byte for byte', async () => {
    const recorded = testUsdArtifact();
    const source = readFileSync(new URL('./fixtures/evm/TestUsd.sol', import.meta.url), 'utf8');
    // Standard JSON input (docs.soliditylang.org, "Compiler Input and Output JSON Description").
    const input = {
      language: 'Solidity',
      sources: { [recorded.sourceName]: { content: source } },
      settings: { ...recorded.compiler.settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)) as string) as StandardJsonOutput;
    const problems = (output.errors ?? []).map((e) => e.formattedMessage);
    expect(problems).toEqual([]);
    const contract = output.contracts?.[recorded.sourceName]?.[recorded.contractName];
    if (!contract) throw new Error(`solc gave no ${recorded.contractName}`);

    const fresh = {
      contractName: recorded.contractName,
      sourceName: recorded.sourceName,
      compiler: { version: solc.version() as string, settings: recorded.compiler.settings },
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
    };
    expect(fresh.compiler.version).toBe('0.8.37+commit.f401782d.Emscripten.clang');
    // The bytecode ends in the CBOR metadata, whose hash covers the source text and the settings: any
    // edit of either changes it.
    expect(fresh.bytecode).toBe(recorded.bytecode);
    await expect(`${JSON.stringify(fresh, null, 2)}\n`).toMatchFileSnapshot('./fixtures/evm/TestUsd.json');
  });
});
