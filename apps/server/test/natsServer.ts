import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

export function findNatsServer(): string | undefined {
  return BINARIES.find((binary) => existsSync(binary));
}

/**
 * A nats-server of a test's own, with JetStream on disk, that the test may stop and start again on
 * the same port and store (the machine's shared server must never be stopped by a test).
 */
export class NatsServer {
  #child: ChildProcess | undefined;
  readonly #store = mkdtempSync(path.join(tmpdir(), 'lodestone-nats-'));

  private constructor(
    private readonly binary: string,
    readonly port: number,
  ) {}

  static async start(port: number): Promise<NatsServer> {
    const binary = findNatsServer();
    if (binary === undefined) throw new Error('nats-server not found: apt-get install -y nats-server');
    const server = new NatsServer(binary, port);
    await server.up();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    if (this.#child) return;
    this.#child = spawn(this.binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.#store], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 200; i++) {
      if (await accepts(this.port)) return;
      await sleep(50);
    }
    throw new Error(`nats-server did not listen on ${this.port}`);
  }

  /** Kills the server at once (SIGKILL): every client loses its connection. */
  async down(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
