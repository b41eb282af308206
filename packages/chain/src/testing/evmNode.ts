import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { freePorts } from './regtest.js';

/**
 * A real EVM node for tests: Hardhat 2.29's `hardhat node` (the EDR engine, which runs offline on
 * Node 20; docs/research/wallets.md §1) started as a child process on a free loopback port, so a test
 * can stop it under a wallet. The funded accounts are keys generated for this node alone and written
 * into its configuration, never a key anyone else knows. Not for production code.
 */

/** Chain id of a Hardhat node unless configured otherwise (hardhat 2.29.1 internal/core/config/default-config.js). */
export const HARDHAT_CHAIN_ID = 31337;

/** 10 000 ETH in wei, what Hardhat gives each of its default accounts. */
const DEFAULT_BALANCE = 10_000n * 10n ** 18n;

export interface EvmNodeOptions {
  /** How many funded accounts (default 4). */
  accounts?: number;
  /** Wei in each funded account (default 10 000 ETH). */
  balance?: bigint;
  chainId?: number;
  /** How long the node may take to say it listens (default 30 000 ms). */
  startupTimeoutMs?: number;
}

export interface EvmNode {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly chainId: number;
  /** Private keys of the funded accounts, generated for this node (tests only). */
  readonly fundedKeys: readonly Hex[];
  /** One JSON-RPC call; throws with the node's message when it answers with an error. */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  /** Mines `blocks` blocks (evm_mine each), including what the pool holds in the first. */
  mine(blocks?: number): Promise<void>;
  /** Automine (one block per transaction, Hardhat's default) on or off. */
  setAutomine(on: boolean): Promise<void>;
  /** evm_snapshot: the id to revert to (each id can be reverted to once). */
  snapshot(): Promise<string>;
  /** evm_revert: the chain and the pool go back to the snapshot. */
  revert(id: string): Promise<void>;
  /** hardhat_dropTransaction: removes a transaction from the pool, as a node that evicts it. */
  dropTransaction(hash: Hex): Promise<void>;
  /** The end of the node's output, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startEvmNode(options: EvmNodeOptions = {}): Promise<EvmNode> {
  const chainId = options.chainId ?? HARDHAT_CHAIN_ID;
  const balance = options.balance ?? DEFAULT_BALANCE;
  const fundedKeys = Array.from({ length: options.accounts ?? 4 }, () => generatePrivateKey());
  const timeoutMs = options.startupTimeoutMs ?? 30_000;
  const root = await mkdtemp(join(tmpdir(), 'lodestone-evm-node-'));
  // A real node answers a reverting transaction with its hash and mines it with status 0; Hardhat
  // would instead throw from eth_sendRawTransaction under automine unless told not to
  // (throwOnTransactionFailures, hardhat.org "Hardhat Network reference").
  const config = {
    networks: {
      hardhat: {
        chainId,
        throwOnTransactionFailures: false,
        accounts: fundedKeys.map((privateKey) => ({ privateKey, balance: balance.toString() })),
      },
    },
  };
  await writeFile(join(root, 'hardhat.config.js'), `module.exports = ${JSON.stringify(config, null, 2)};\n`);

  // Hardhat refuses to run unless `hardhat` resolves from the working directory to the very copy that
  // runs (internal/core/execution-mode.js, isHardhatInstalledLocallyOrLinked): run it from its own
  // package folder and point --config at the temporary project.
  const hardhatDir = dirname(createRequire(import.meta.url).resolve('hardhat/package.json'));
  const [port] = await freePorts(1);
  const child = spawn(
    process.execPath,
    [
      join(hardhatDir, 'internal', 'cli', 'cli.js'),
      '--config',
      join(root, 'hardhat.config.js'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      cwd: hardhatDir,
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stderr?.on('data', keep);
  // A test process that ends without stop() (a crash, a failed hook) must not leave the node running.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = (): Promise<void> => {
    process.off('exit', killOnExit);
    return stopNode(child, root);
  };
  try {
    await waitForStart(child, timeoutMs, () => output, keep);
  } catch (error) {
    await stop();
    throw error;
  }

  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
    id += 1;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
    return body.result;
  };
  const expectTrue = async (method: string, params: unknown[]): Promise<void> => {
    const result = await rpc(method, params);
    if (result !== true) throw new Error(`${method} answered ${JSON.stringify(result)}`);
  };

  return {
    url,
    chainId,
    fundedKeys,
    rpc,
    mine: async (blocks = 1) => {
      for (let i = 0; i < blocks; i++) await rpc('evm_mine');
    },
    setAutomine: (on) => expectTrue('evm_setAutomine', [on]),
    snapshot: async () => {
      const snapshotId = await rpc('evm_snapshot');
      if (typeof snapshotId !== 'string') throw new Error(`evm_snapshot answered ${JSON.stringify(snapshotId)}`);
      return snapshotId;
    },
    revert: (snapshotId) => expectTrue('evm_revert', [snapshotId]),
    dropTransaction: (hash) => expectTrue('hardhat_dropTransaction', [hash]),
    output: () => output,
    stop,
  };
}

/** Resolves once the node prints "Started HTTP" (hardhat's builtin-tasks/node.js), with its output in any error. */
function waitForStart(
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
  keep: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      reject(new Error(`the Hardhat node did not start within ${timeoutMs} ms; its output:\n${output()}`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      // The node logs every call on stdout: keep reading it (a full pipe would stall the node) but
      // only the start line matters.
      keep(chunk);
      if (!started && output().includes('Started HTTP')) {
        started = true;
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`the Hardhat node could not be run: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!started)
        reject(new Error(`the Hardhat node exited (${code ?? signal}) before it started; its output:\n${output()}`));
    });
  });
}

/** SIGTERM, then SIGKILL after 10 s; the temporary project is removed once the process is gone. */
async function stopNode(child: ChildProcess, root: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(root, { recursive: true, force: true });
}
