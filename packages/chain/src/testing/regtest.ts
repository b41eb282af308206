import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BitcoinRpc } from '../rpc/bitcoinRpc.js';
import { RpcClient } from '../rpc/client.js';
import { RpcError } from '../rpc/errors.js';

/**
 * Two `litecoind -regtest` nodes for tests: the second connects to the first (getblocktemplate refuses
 * to work without a peer), a wallet on the first gives the pool a bech32 address, and one block is
 * mined so the tip is not the genesis block. Everything lives in temporary directories and is removed
 * by `stop()`.
 */

/** Debian's package puts the daemon here; /usr/bin/litecoind is a wrapper that writes ~/.litecoin. */
const CANDIDATES = ['/usr/lib/litecoin/litecoind', '/usr/bin/litecoind', '/usr/local/bin/litecoind'];

export function findLitecoind(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

export interface RegtestNode {
  readonly name: string;
  readonly datadir: string;
  readonly rpcPort: number;
  readonly p2pPort: number;
  /** `http://user:password@127.0.0.1:port/` */
  readonly rpcUrl: string;
  readonly client: RpcClient;
  readonly rpc: BitcoinRpc;
  readonly process: ChildProcess;
  /** The end of the daemon's stderr, for error messages. */
  stderr(): string;
}

export interface LitecoinRegtest {
  readonly miner: RegtestNode;
  readonly peer: RegtestNode;
  /** A bech32 (rltc1…) address of the miner's wallet. */
  readonly poolAddress: string;
  /** Mines blocks with the daemon's own miner (generatetoaddress) to a throwaway wallet address. */
  generate(blocks: number): Promise<string[]>;
  /** Waits until both nodes have the same tip. */
  sync(timeoutMs?: number): Promise<void>;
  /** Sends coins from the miner's wallet into MWEB (a peg-in), returning the txid. */
  pegIn(amount: number): Promise<string>;
  stop(): Promise<void>;
}

export interface LitecoinRegtestOptions {
  binary?: string;
  /** How long each node may take to answer RPC (ms, default 30 000). */
  startupTimeoutMs?: number;
  /** More litecoind arguments for both nodes (`-rpcthreads=16`, `-debug=http`). */
  extraArgs?: readonly string[];
}

export async function startLitecoinRegtest(options: LitecoinRegtestOptions = {}): Promise<LitecoinRegtest> {
  const binary = options.binary ?? findLitecoind();
  if (!binary) {
    throw new Error('litecoind not found: install it with `apt-get update && apt-get install -y litecoind`');
  }
  const timeoutMs = options.startupTimeoutMs ?? 30_000;
  const root = await mkdtemp(join(tmpdir(), 'lodestone-ltc-regtest-'));
  const nodes: RegtestNode[] = [];
  try {
    const [minerRpc, minerP2p, peerRpc, peerP2p] = await freePorts(4);
    const extra = options.extraArgs ?? [];
    const miner = await startNode(binary, root, 'miner', minerRpc as number, minerP2p as number, [...extra]);
    nodes.push(miner);
    const peer = await startNode(binary, root, 'peer', peerRpc as number, peerP2p as number, [
      `-connect=127.0.0.1:${minerP2p}`,
      ...extra,
    ]);
    nodes.push(peer);
    await Promise.all([waitForRpc(miner, timeoutMs), waitForRpc(peer, timeoutMs)]);
    await waitFor(
      async () => ((await miner.client.call('getconnectioncount')) as number) > 0,
      timeoutMs,
      'the regtest nodes to connect',
    );

    await miner.client.call('createwallet', ['pool']);
    const poolAddress = (await miner.client.call('getnewaddress', ['', 'bech32'])) as string;
    const burnAddress = (await miner.client.call('getnewaddress', ['', 'bech32'])) as string;
    const generate = async (blocks: number): Promise<string[]> =>
      (await miner.client.call('generatetoaddress', [blocks, burnAddress], { timeoutMs: 120_000 })) as string[];
    const sync = async (syncTimeoutMs = 30_000): Promise<void> => {
      await waitFor(
        async () => (await miner.rpc.getBestBlockHash()) === (await peer.rpc.getBestBlockHash()),
        syncTimeoutMs,
        'the regtest nodes to sync',
      );
    };
    await generate(1);
    await sync();

    return {
      miner,
      peer,
      poolAddress,
      generate,
      sync,
      pegIn: async (amount) => {
        const mwebAddress = (await miner.client.call('getnewaddress', ['', 'mweb'])) as string;
        return (await miner.client.call('sendtoaddress', [mwebAddress, amount])) as string;
      },
      stop: () => stopAll(nodes, root),
    };
  } catch (error) {
    await stopAll(nodes, root);
    throw error;
  }
}

async function startNode(
  binary: string,
  root: string,
  name: string,
  rpcPort: number,
  p2pPort: number,
  extra: string[],
): Promise<RegtestNode> {
  const datadir = join(root, name);
  await mkdir(datadir);
  const user = 'lodestone';
  const password = randomBytes(12).toString('hex');
  const args = [
    '-regtest',
    `-datadir=${datadir}`,
    `-rpcuser=${user}`,
    `-rpcpassword=${password}`,
    `-rpcport=${rpcPort}`,
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    `-port=${p2pPort}`,
    '-bind=127.0.0.1',
    '-listen=1',
    '-server=1',
    '-discover=0',
    '-dnsseed=0',
    '-listenonion=0',
    '-printtoconsole=0',
    '-fallbackfee=0.0001',
    ...extra,
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  child.on('error', (error) => {
    stderr += `\n${error.message}`;
  });
  const rpcUrl = `http://${user}:${password}@127.0.0.1:${rpcPort}/`;
  const client = new RpcClient({ url: rpcUrl, timeoutMs: 30_000 });
  return {
    name,
    datadir,
    rpcPort,
    p2pPort,
    rpcUrl,
    client,
    rpc: new BitcoinRpc(client),
    process: child,
    stderr: () => stderr,
  };
}

async function waitForRpc(node: RegtestNode, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      if (node.process.exitCode !== null) {
        throw new Error(`litecoind ${node.name} exited with ${node.process.exitCode}: ${node.stderr()}`);
      }
      try {
        await node.rpc.getBlockchainInfo({ timeoutMs: 2000 });
        return true;
      } catch (error) {
        if (error instanceof RpcError && (error.kind === 'unreachable' || error.rpcCode === -28)) return false;
        throw error;
      }
    },
    timeoutMs,
    `litecoind ${node.name} to answer RPC`,
  );
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopAll(nodes: readonly RegtestNode[], root: string): Promise<void> {
  await Promise.all(nodes.map((node) => stopNode(node)));
  await rm(root, { recursive: true, force: true });
}

/** `stop` over RPC, then wait for the process to exit; SIGKILL if it takes more than 15 s. */
async function stopNode(node: RegtestNode): Promise<void> {
  const child = node.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    await node.client.call('stop', [], { timeoutMs: 5000 });
  } catch {
    child.kill('SIGTERM');
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Ports the OS says are free right now (listen on port 0, read it, close). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => {
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  });
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
