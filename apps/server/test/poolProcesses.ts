import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { HealthResponse } from '@lodestone/contract';
import { type Run, run } from './process.js';

/** One process of a multi-process pool: how it was started, so a test can kill it and start it again. */
export interface PoolProcess {
  readonly name: string;
  readonly port: number;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  current: Run;
}

export interface Health {
  status: number;
  body: HealthResponse | undefined;
}

/**
 * The processes of a pool run as an operator runs them (`--role=…`, one PORT each), started from the
 * real bundle, with what a fault test needs: signals, restarts and each process's health.
 */
export class PoolProcesses {
  readonly #all = new Map<string, PoolProcess>();

  /** With `logDir`, each process's output is also appended to `<logDir>/<name>.log` (for a human reading a failure). */
  constructor(private readonly logDir?: string) {}

  start(name: string, port: number, args: string[], env: Record<string, string>): PoolProcess {
    const process: PoolProcess = { name, port, args, env, current: this.#run(name, port, args, env) };
    this.#all.set(name, process);
    return process;
  }

  #run(name: string, port: number, args: readonly string[], env: Record<string, string>): Run {
    const started = run({ ...env, PORT: String(port) }, [...args]);
    if (this.logDir !== undefined) {
      const file = createWriteStream(path.join(this.logDir, `${name}.log`), { flags: 'a' });
      started.child.stdout?.pipe(file);
      started.child.stderr?.pipe(file);
    }
    return started;
  }

  get(name: string): PoolProcess {
    const process = this.#all.get(name);
    if (!process) throw new Error(`no process ${name}`);
    return process;
  }

  get all(): PoolProcess[] {
    return [...this.#all.values()];
  }

  /** Sends a signal; for SIGKILL, waits until the process is gone. */
  async signal(name: string, signal: NodeJS.Signals): Promise<void> {
    const { current } = this.get(name);
    current.child.kill(signal);
    if (signal === 'SIGKILL') await current.exit;
  }

  /** SIGTERM, as an operator's restart sends it, and waits until the process has exited: its exit code. */
  async terminate(name: string): Promise<number | null> {
    const { current } = this.get(name);
    current.child.kill('SIGTERM');
    await current.exit;
    return current.child.exitCode;
  }

  /** Starts the process again as it was started (same port, settings, data folder). */
  restart(name: string): void {
    const process = this.get(name);
    if (process.current.child.exitCode === null && process.current.child.signalCode === null) {
      throw new Error(`${name} is still running`);
    }
    process.current = this.#run(name, process.port, process.args, process.env);
  }

  async health(name: string): Promise<Health> {
    const { port } = this.get(name);
    const res = await fetch(`http://127.0.0.1:${port}/v1/health`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => undefined,
    );
    if (!res) return { status: 0, body: undefined };
    const body = (await res.json().catch(() => undefined)) as HealthResponse | undefined;
    return { status: res.status, body };
  }

  /** Every process's health, read once each. */
  async healths(): Promise<Map<string, Health>> {
    return new Map(await Promise.all(this.all.map(async (p) => [p.name, await this.health(p.name)] as const)));
  }

  /** The names of the processes whose readiness is not 200 right now. */
  async unready(healths?: Map<string, Health>): Promise<string[]> {
    return [...(healths ?? (await this.healths()))].filter(([, h]) => h.status !== 200).map(([name]) => name);
  }

  /** The jobs processes that say they are active. */
  async activeJobs(healths?: Map<string, Health>): Promise<string[]> {
    return [...(healths ?? (await this.healths()))].filter(([, h]) => h.body?.jobs === 'active').map(([name]) => name);
  }

  /** SIGTERM to every process still running; SIGKILL after 20 s. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.all.map(async ({ current }) => {
        const child = current.child;
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await current.exit;
        clearTimeout(timer);
      }),
    );
  }

  /** Each process's last words, to explain a failure. */
  logs(): string {
    return this.all.map((p) => `--- ${p.name}\n${p.current.stderr()}\n${p.current.stdout().slice(-4000)}`).join('\n');
  }
}
