import { randomUUID } from 'node:crypto';
import type { WorkJob } from '@lodestone/chain';
import type { AlgorithmKey, ConnectionEvent } from '@lodestone/domain';
import { ipRange } from '../net/address.js';
import type { BlockSubmitter } from './blocks.js';
import type { Dialect, DialectConnection } from './dialects/dialect.js';
import { IssuedJobs } from './issuedJobs.js';
import type { JobEntry, JobManager } from './jobManager.js';
import { LineQueue } from './lineQueue.js';
import type { StratumLog } from './log.js';
import { type Login, parseLogin, requestedDifficulty } from './login.js';
import type { StratumMetrics } from './metrics.js';
import { powFor } from './pow.js';
import {
  errorLine,
  notificationLine,
  parseLine,
  type RpcId,
  resultLine,
  StratumError,
  type StratumErrorCode,
  type StratumRequest,
  type SubmitRequest,
} from './protocol.js';
import type { ShareOutcome, ShareRecorder } from './shareAggregator.js';
import { REJECT_MESSAGES } from './validate.js';
import {
  checkIdle,
  clampDifficulty,
  type DifficultyBounds,
  newVardiffState,
  recordShare,
  restartWindow,
  roundDifficulty,
  type VardiffSettings,
  type VardiffState,
} from './vardiff.js';

/** What a connection history keeps of the mining software's name and of a close reason (migration 0027). */
const USER_AGENT_MAX = 200;
const REASON_MAX = 200;

export type ListenerKind = 'standard' | 'marketplace' | 'xnsub' | 'solo';

export interface PortSettings {
  algorithm: AlgorithmKey;
  kind: ListenerKind;
  port: number;
  minDifficulty: number;
  maxDifficulty: number;
  startDifficulty: number;
}

export interface SessionLimits {
  /** Lines waiting behind a slow handler before reading from the socket pauses. */
  maxQueuedLines: number;
  /** Malformed lines (and failed logins) tolerated per connection; one more closes it and bans the address. */
  maxMalformed: number;
  /** Share of invalid shares (stale ones excluded) above which the connection is closed and banned… */
  maxInvalidShareRatio: number;
  /** …once at least this many shares were submitted. */
  invalidShareMinShares: number;
  /**
   * Jobs of the current block remembered per session, far above what an honest miner receives in
   * one block; a share of a job let go answers "job not found" (of an older block: "stale").
   */
  maxIssuedJobs: number;
  maxWorkersPerSession: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxQueuedLines: 256,
  maxMalformed: 10,
  maxInvalidShareRatio: 0.5,
  invalidShareMinShares: 50,
  maxIssuedJobs: 256,
  maxWorkersPerSession: 64,
};

/**
 * The difficulty of each job's easiest block (Session.blockCap), worked out once per job rather than
 * once per session it is sent to; a job's pow is its algorithm's, the same for every port.
 */
const BLOCK_DIFFICULTIES = new WeakMap<WorkJob, number>();

/** What a session uses; shared by every session of one port. */
export interface SessionServices<J extends WorkJob = WorkJob> {
  port: PortSettings;
  /** The port's algorithm's jobs: the newest, and each new one. */
  jobs: Pick<JobManager<J, unknown>, 'current' | 'onJob'>;
  /** What the port's miners speak. */
  dialect: Dialect<J>;
  shares: ShareRecorder;
  blocks: Pick<BlockSubmitter, 'submit'>;
  /** Whether an account may mine (the accounts module plugs in here). */
  authorize(account: string): Promise<boolean>;
  vardiff: VardiffSettings;
  limits: SessionLimits;
  metrics: StratumMetrics;
  log: StratumLog;
  now(): number;
}

/** The socket side of a session, supplied by the listener. */
export interface SessionTransport {
  readonly remoteAddress: string;
  write(text: string): void;
  /** Ends the connection after pending writes; `abusive` also bans the address (except on marketplace ports). */
  close(reason: string, abusive: boolean): void;
  /** Stops or resumes reading from the socket (flow control). */
  setReadPaused(paused: boolean): void;
}

/**
 * One miner connection: a state machine over the stratum methods, whatever the dialect. Lines are
 * handled strictly in arrival order: a line waits in the queue while an earlier one is still being
 * handled (an authorization awaiting the accounts module, for instance). The connection's dialect
 * answers subscribe, writes difficulties and jobs and checks shares (dialects/dialect.ts); the session
 * keeps logins, vardiff, the jobs it sent with their difficulties, share records, block hand-off and
 * the limits that close and ban.
 */
export class Session<J extends WorkJob = WorkJob> {
  readonly connectedAt: number;
  lastShareAt: number | undefined;

  private readonly queue: LineQueue;
  private readonly dialect: DialectConnection<J>;
  private closed = false;

  private readonly workers = new Map<string, Login>();

  private readonly bounds: DifficultyBounds;
  private difficulty: number;
  private target: bigint;
  private pendingDifficulty: number | undefined;
  private difficultySent = false;
  private readonly vardiff: VardiffState;

  private readonly issued: IssuedJobs<JobEntry<J>>;

  private submitted = 0;
  private invalid = 0;
  private malformed = 0;

  /**
   * The connection history's view of the session (docs/dashboard.md, "Connection history"): an id
   * unique across the node's restarts (given at the first login), the software it named in
   * `mining.subscribe`, and why the pool closed it, if it did.
   */
  private historyId: string | undefined;
  private userAgent: string | undefined;
  /** The address's network (/24 or /48), worked out at the first report, null when it is no address. */
  private range: string | null | undefined;
  private closeReason: string | undefined;

  constructor(
    private readonly services: SessionServices<J>,
    private readonly transport: SessionTransport,
  ) {
    const { port } = services;
    this.connectedAt = services.now();
    this.dialect = services.dialect.connect({
      port,
      remoteAddress: transport.remoteAddress,
      close: (reason, abusive) => this.close(reason, abusive),
    });
    this.bounds = { min: port.minDifficulty, max: port.maxDifficulty };
    this.difficulty = this.shape(port.startDifficulty);
    this.target = services.dialect.pow.targetForDifficulty(this.difficulty);
    this.vardiff = newVardiffState(this.connectedAt);
    this.issued = new IssuedJobs(services.limits.maxIssuedJobs);
    this.queue = new LineQueue({
      handle: (line) => this.handle(line),
      onError: (error) =>
        services.log.error({ err: error, remote: transport.remoteAddress }, 'stratum line handling failed'),
      setReadPaused: (paused) => transport.setReadPaused(paused),
      maxQueued: services.limits.maxQueuedLines,
    });
  }

  get remoteAddress(): string {
    return this.transport.remoteAddress;
  }

  get authorized(): boolean {
    return this.workers.size > 0;
  }

  private get ready(): boolean {
    return this.dialect.subscribed && this.workers.size > 0 && !this.closed;
  }

  /** Queues one line from the socket; lines are handled one after the other. */
  receive(line: string): void {
    this.queue.push(line);
  }

  /** The framer saw a line longer than allowed: answer, close, and count it as malformed. */
  lineTooLong(): void {
    if (this.closed) return;
    this.malformed++;
    this.transport.write(errorLine(null, StratumError.Other, 'Line too long'));
    this.close('line too long', this.malformed > this.services.limits.maxMalformed);
  }

  /** A new job from the job manager. */
  onJob(entry: JobEntry<J>, cleanJobs: boolean): void {
    this.sendJob(entry, cleanJobs);
  }

  /** Periodic housekeeping: lowers the difficulty of a session that stopped sending shares. */
  tick(now: number): void {
    if (!this.ready || !this.difficultySent) return;
    const next = checkIdle(this.services.vardiff, this.bounds, this.vardiff, this.currentDifficulty(), now);
    if (next !== undefined) this.changeDifficulty(next);
  }

  /**
   * Called once the socket is gone; frees the connection's nonce space and reports each worker's
   * disconnect: why the pool closed it, else what the listener saw (`lost`), else the miner left.
   */
  dispose(lost?: string): void {
    this.closed = true;
    this.queue.stop();
    this.dialect.release();
    const reason = this.closeReason ?? lost ?? 'closed by miner';
    for (const login of this.workers.values()) this.reportConnection(login, 'disconnect', reason);
  }

  /** Ends the connection; `abusive` asks the listener to ban the address. */
  /**
   * Asks the miner to reconnect (`client.reconnect`, as cgminer and its descendants take it): to `to`
   * at once, or with no parameters to the address it used. The session stays open: a miner that does
   * not follow is closed when the server stops.
   */
  askToReconnect(to: { host: string; port: number } | undefined): void {
    this.transport.write(notificationLine('client.reconnect', to ? [to.host, to.port, 0] : []));
  }

  close(reason: string, abusive: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.queue.stop();
    this.transport.close(reason, abusive);
  }

  private handle(line: string): Promise<void> | undefined {
    const parsed = parseLine(line);
    if (parsed.kind === 'response') return undefined;
    if (parsed.kind === 'invalid') {
      this.rejectMalformed(parsed.id, `Malformed request: ${parsed.reason}`);
      return undefined;
    }
    return this.dispatch(parsed.id, parsed.request);
  }

  private dispatch(id: RpcId, request: StratumRequest): Promise<void> | undefined {
    switch (request.method) {
      case 'mining.subscribe':
        this.subscribe(id, request.params);
        return undefined;
      case 'mining.authorize':
        return this.authorize(id, request.login, request.password);
      case 'mining.suggest_difficulty':
        this.suggestDifficulty(id, request.difficulty);
        return undefined;
      case 'mining.submit':
        this.submit(id, request);
        return undefined;
      case 'other':
        this.other(id, request.name, request.params);
        return undefined;
    }
  }

  private rejectMalformed(id: RpcId, message: string, code: StratumErrorCode = StratumError.Other): void {
    this.malformed++;
    this.transport.write(errorLine(id, code, message));
    if (this.malformed > this.services.limits.maxMalformed) {
      this.services.metrics.refused('malformed');
      this.close('too many malformed messages', true);
    }
  }

  private write(text: string): void {
    if (!this.closed) this.transport.write(text);
  }

  // -------------------------------------------------------------------------------------------
  // Methods

  private subscribe(id: RpcId, params: readonly unknown[]): void {
    const agent = params[0];
    if (typeof agent === 'string' && agent.trim() !== '') this.userAgent = agent.trim().slice(0, USER_AGENT_MAX);
    const first = !this.dialect.subscribed;
    if (!this.answer(id, this.dialect.subscribe(params))) return;
    if (first && this.ready && !this.difficultySent) this.sendCurrentJob(true);
  }

  /** Writes a dialect's answer; false when it was an error. */
  private answer(id: RpcId, outcome: ReturnType<DialectConnection['subscribe']>): boolean {
    if ('error' in outcome) {
      if (outcome.malformed) this.rejectMalformed(id, outcome.error, outcome.code);
      else this.write(errorLine(id, outcome.code, outcome.error));
      return false;
    }
    this.write(resultLine(id, outcome.result));
    if (outcome.then) this.write(outcome.then);
    if (outcome.minimumDifficulty !== undefined) {
      this.bounds.min = outcome.minimumDifficulty;
      if (this.currentDifficulty() < this.bounds.min) this.requestDifficulty(this.bounds.min);
    }
    return true;
  }

  private other(id: RpcId, name: string, params: readonly unknown[]): void {
    const outcome = this.dialect.method(name, params);
    if (outcome === undefined) this.write(errorLine(id, StratumError.Other, `Unknown method ${name}`));
    else this.answer(id, outcome);
  }

  private async authorize(id: RpcId, loginText: string, password: string): Promise<void> {
    const login = parseLogin(loginText);
    if (typeof login === 'string') {
      this.rejectMalformed(id, `Invalid login '${loginText.slice(0, 64)}': ${login}`, StratumError.Unauthorized);
      return;
    }
    if (this.workers.size >= this.services.limits.maxWorkersPerSession && !this.workers.has(loginText)) {
      this.write(errorLine(id, StratumError.Unauthorized, 'Too many workers on one connection'));
      return;
    }
    let allowed: boolean;
    try {
      allowed = await this.services.authorize(login.account);
    } catch (error) {
      this.services.log.error({ err: error, account: login.account }, 'account check failed');
      this.write(errorLine(id, StratumError.Other, 'Authorization temporarily unavailable'));
      return;
    }
    if (this.closed) return;
    if (!allowed) {
      this.rejectMalformed(id, `Unknown account '${login.account}'`, StratumError.Unauthorized);
      return;
    }
    const first = this.workers.size === 0;
    const known = this.workers.has(loginText);
    this.workers.set(loginText, login);
    if (!known) this.reportConnection(login, 'connect');
    this.dialect.authorized(login);
    const asked = requestedDifficulty(password);
    if (asked !== undefined) this.requestDifficulty(asked);
    this.write(resultLine(id, true));
    if (first && this.ready) this.sendCurrentJob(true);
  }

  private reportConnection(login: Login, event: ConnectionEvent['event'], reason?: string): void {
    this.historyId ??= randomUUID();
    const report: ConnectionEvent = {
      account: login.account,
      worker: login.worker,
      session: this.historyId,
      event,
      at: this.services.now(),
    };
    if (reason !== undefined) report.reason = reason.slice(0, REASON_MAX);
    if (this.range === undefined) this.range = ipRange(this.transport.remoteAddress);
    if (this.range !== null) report.ipRange = this.range;
    if (this.userAgent !== undefined) report.userAgent = this.userAgent;
    this.services.shares.connection(this.services.port.algorithm, report);
  }

  private suggestDifficulty(id: RpcId, difficulty: number): void {
    this.requestDifficulty(difficulty);
    this.write(resultLine(id, true));
  }

  private submit(id: RpcId, request: SubmitRequest): void {
    const { services } = this;
    if (!this.dialect.subscribed) {
      this.write(errorLine(id, StratumError.NotSubscribed));
      return;
    }
    const login = this.workers.get(request.worker);
    if (!login) {
      this.write(errorLine(id, StratumError.Unauthorized));
      return;
    }
    const now = services.now();
    const verdict = this.dialect.checkShare(this.issued, this.dialect.parseJobId(request.jobId), request.params, now);
    if (!verdict.accepted && verdict.malformed) {
      this.rejectMalformed(id, verdict.message ?? REJECT_MESSAGES[verdict.reason]);
      return;
    }
    const { issued } = verdict;
    if (issued && verdict.key !== undefined && !issued.entry.stale) issued.entry.seen.add(verdict.key);
    this.submitted++;
    this.lastShareAt = now;
    const { algorithm } = services.port;
    const solo = services.port.kind === 'solo';

    if (!verdict.accepted) {
      const kind = verdict.reason === 'stale' ? 'stale' : 'invalid';
      const refused: ShareOutcome = { kind, reason: verdict.reason };
      if (solo) refused.solo = true;
      services.shares.record(algorithm, login.account, login.worker, refused, now);
      services.metrics.share(algorithm, kind, verdict.reason);
      this.write(errorLine(id, verdict.code, verdict.message ?? REJECT_MESSAGES[verdict.reason]));
      if (kind === 'invalid') this.invalid++;
      const { maxInvalidShareRatio, invalidShareMinShares } = services.limits;
      if (this.submitted >= invalidShareMinShares && this.invalid / this.submitted > maxInvalidShareRatio) {
        services.metrics.refused('invalid-shares');
        this.close('too many invalid shares', true);
      }
      return;
    }

    const outcome: ShareOutcome = { kind: 'valid', difficulty: verdict.difficulty };
    // One division for a solo share's best-share figure; pool ports skip it. A share that found a block
    // is that block, not a best share (else the round the block opens would start with it as its
    // best): 0. (A hash of 0 would be an infinite difficulty, which JSON cannot carry: it counts as 1.)
    if (solo) {
      outcome.solo = true;
      outcome.achieved = verdict.block ? 0 : powFor(algorithm).difficultyForTarget(verdict.hashValue || 1n);
    }
    services.shares.record(algorithm, login.account, login.worker, outcome, now);
    services.metrics.share(algorithm, 'valid', '');
    services.metrics.credited(algorithm, verdict.difficulty);
    this.write(resultLine(id, true));
    // Rare (a block of the parent or of an aux chain): nothing is allocated for an ordinary share.
    if (verdict.block || verdict.auxBlocks) {
      const found = {
        account: login.account,
        worker: login.worker,
        difficulty: verdict.difficulty,
        ...(solo && { solo }),
      };
      if (verdict.block) services.blocks.submit({ block: verdict.block, ...found });
      for (const block of verdict.auxBlocks ?? []) services.blocks.submit({ block, ...found });
    }
    const next = recordShare(
      services.vardiff,
      this.bounds,
      this.vardiff,
      this.currentDifficulty(),
      verdict.difficulty,
      now,
    );
    if (next !== undefined) this.changeDifficulty(next);
  }

  // -------------------------------------------------------------------------------------------
  // Difficulty and jobs

  /** The difficulty the next job will carry. */
  private currentDifficulty(): number {
    return this.pendingDifficulty ?? this.difficulty;
  }

  /**
   * A difficulty within the bounds, in the form the dialect's miners take, and no higher than `job`'s
   * blocks (the current job's, by default): see blockCap.
   */
  private shape(difficulty: number, job: WorkJob | undefined = this.services.jobs.current()?.job): number {
    const cap = job ? this.blockCap(job) : Number.POSITIVE_INFINITY;
    let shaped = this.dialect.shapeDifficulty(Math.min(clampDifficulty(difficulty, this.bounds), cap));
    // A dialect that takes only some values (powers of two) may round above the cap: the next one down.
    for (let step = 0; shaped > cap && step < 64; step++) {
      const lower = this.dialect.shapeDifficulty(shaped / 2);
      if (!(lower < shaped) || lower < this.bounds.min) break;
      shaped = lower;
    }
    return shaped;
  }

  /**
   * The highest share difficulty a job's shares may be sent at: that of the easiest block they can
   * make (its chain's, or a merge-mined chain's). Above it blocks would be lost — a miner submits only
   * the hashes that meet its share target — so ckpool caps its difficulties at the network's too. Never
   * below the port's start or minimum difficulty, though: the operator's statement of the share rate a
   * node takes, which a chain easier than that (regtest: every hash is nearly a block) would flood.
   * Only the demo network (when vardiff climbs for a fast miner) and test chains are ever this easy.
   */
  private blockCap(job: WorkJob): number {
    let blocks = BLOCK_DIFFICULTIES.get(job);
    if (blocks === undefined) {
      const merged = job.merged?.easiestTarget ?? 0n;
      blocks = this.services.dialect.pow.difficultyForTarget(merged > job.networkTarget ? merged : job.networkTarget);
      BLOCK_DIFFICULTIES.set(job, blocks);
    }
    return Math.max(this.bounds.min, this.services.port.startDifficulty, blocks);
  }

  /** A difficulty the miner asked for (password d=N, suggest_difficulty), within the port's bounds. */
  private requestDifficulty(difficulty: number): void {
    const shaped = this.shape(roundDifficulty(difficulty));
    if (!this.difficultySent) {
      this.difficulty = shaped;
      this.target = this.services.dialect.pow.targetForDifficulty(shaped);
    } else {
      this.changeDifficulty(shaped);
    }
  }

  /**
   * A new difficulty applies to the jobs sent from now on; jobs already sent keep theirs. It goes out
   * at once with the current job re-sent under a new id when the dialect can make that job's work
   * differ (bitcoin family: ntime moves forward, so that a miner that only switches when the header
   * bytes change, cpuminer 2.5.1, does switch, and one that restarts its nonces on every new job id,
   * cpuminer-opt, hashes new headers). MiningCore re-sends the very same job, ckpool waits for the
   * next template; the first leaves old work running, the second a miner far off target for up to a
   * template interval. When the job cannot be re-sent, the next job carries the difficulty.
   */
  private changeDifficulty(proposed: number): void {
    const difficulty = this.shape(proposed);
    if (difficulty === this.currentDifficulty()) return;
    this.pendingDifficulty = difficulty;
    restartWindow(this.vardiff, this.services.now());
    this.services.log.debug({ remote: this.transport.remoteAddress, difficulty }, 'vardiff retarget');
    const current = this.services.jobs.current();
    if (current && this.dialect.canResend(current, this.services.now())) this.sendJob(current, false);
  }

  private sendCurrentJob(cleanJobs: boolean): void {
    const current = this.services.jobs.current();
    if (current) this.sendJob(current, cleanJobs);
  }

  private sendJob(entry: JobEntry<J>, cleanJobs: boolean): void {
    if (!this.ready) return;
    // A job whose blocks are easier than the difficulty sent (a demo chain's retarget, a new session's
    // start difficulty) lowers it with its first line.
    if (this.currentDifficulty() > this.blockCap(entry.job)) {
      const capped = this.shape(this.currentDifficulty(), entry.job);
      if (capped !== this.difficulty || this.pendingDifficulty !== undefined) this.pendingDifficulty = capped;
    }
    if (this.pendingDifficulty !== undefined) {
      this.difficulty = this.pendingDifficulty;
      this.target = this.services.dialect.pow.targetForDifficulty(this.difficulty);
      this.pendingDifficulty = undefined;
      this.difficultySent = false;
    }
    const id = this.issued.issue(entry, this.difficulty, this.target);
    const announce = this.difficultySent ? undefined : { difficulty: this.difficulty, target: this.target };
    const lines = this.dialect.jobLines(this.dialect.jobId(id), entry, cleanJobs, announce);
    if (lines === undefined) return;
    this.difficultySent = true;
    this.write(lines);
  }
}
