export type Refusal = 'banned' | 'connection-limit';

/**
 * Per-address admission for every listener of the node: a timed ban list and a cap on open
 * connections per address.
 */
export class AddressGuard {
  private readonly bans = new Map<string, number>();
  private readonly open = new Map<string, number>();

  constructor(
    private readonly maxConnectionsPerAddress: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a new connection, or says why it is refused (then nothing is counted). */
  admit(address: string): Refusal | undefined {
    const until = this.bans.get(address);
    if (until !== undefined) {
      if (until > this.now()) return 'banned';
      this.bans.delete(address);
    }
    const count = this.open.get(address) ?? 0;
    if (count >= this.maxConnectionsPerAddress) return 'connection-limit';
    this.open.set(address, count + 1);
    return undefined;
  }

  release(address: string): void {
    const count = (this.open.get(address) ?? 1) - 1;
    if (count <= 0) this.open.delete(address);
    else this.open.set(address, count);
  }

  ban(address: string, durationMs: number): void {
    this.bans.set(address, Math.max(this.bans.get(address) ?? 0, this.now() + durationMs));
  }

  isBanned(address: string): boolean {
    const until = this.bans.get(address);
    return until !== undefined && until > this.now();
  }

  /** Forgets expired bans (called periodically so the map cannot grow without bound). */
  sweep(): void {
    const now = this.now();
    for (const [address, until] of this.bans) if (until <= now) this.bans.delete(address);
  }
}
