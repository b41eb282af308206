import type { BlockSubmitter } from './blocks.js';
import { negotiateExtensions } from './configure.js';
import { EXTRANONCE1_SIZE, type Extranonce1, type ExtranonceAllocator } from './extranonce.js';
import { IssuedJobs } from './issuedJobs.js';
import type { JobEntry, JobManager } from './jobManager.js';
import { LineQueue } from './lineQueue.js';
import type { StratumLog } from './log.js';
import { type Login, parseLogin, requestedDifficulty } from './login.js';
import type { StratumMetrics } from './metrics.js';
import type { PowFunctions, StratumAlgorithm } from './pow.js';
import {
  errorLine,
  notificationLine,
  notifyLine,
  parseLine,
  type RpcId,
  resultLine,
  StratumError,
  type StratumErrorCode,
  type StratumRequest,
  type SubmitRequest,
} from './protocol.js';
import type { ShareRecorder } from './shareAggregator.js';
import { NTIME_MAX_FUTURE_SECONDS, REJECT_MESSAGES, validateShare } from './validate.js';
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

export type ListenerKind = 'standard' | 'marketplace' | 'xnsub';

export interface PortSettings {
  algorithm: StratumAlgorithm;
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

/** What a session uses; shared by every session of one port. */
export interface SessionServices {
  port: PortSettings;
  jobs: JobManager;
  pow: PowFunctions;
  extranonces: ExtranonceAllocator;
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
 * How far ahead of the clock a job re-sent for a retarget may move ntime: re-sends are rare (a few
 * per session while vardiff converges), so this bound is never reached by an honest session; past
 * it the new difficulty waits for the next job.
 */
const MAX_NTIME_LEAD_SECONDS = Math.min(600, NTIME_MAX_FUTURE_SECONDS);

/**
 * One miner connection: a state machine over the stratum methods. Lines are handled strictly in
 * arrival order: a line waits in the queue while an earlier one is still being handled (an
 * authorization awaiting the accounts module, for instance). Shares are validated by
 * `validateShare`, counted in the aggregator, and block candidates handed to the block submitter.
 */
export class Session {
  readonly connectedAt: number;
  lastShareAt: number | undefined;

  private readonly queue: LineQueue;
  private closed = false;

  private extranonce1: Extranonce1 | undefined;
  private extranonce2Size = 0;
  private readonly workers = new Map<string, Login>();
  private versionMask = 0;
  private xnsub = false;

  private readonly bounds: DifficultyBounds;
  private difficulty: number;
  private target: bigint;
  private pendingDifficulty: number | undefined;
  private difficultySent = false;
  private readonly vardiff: VardiffState;

  private readonly issued: IssuedJobs<JobEntry>;
  /** The ntime last sent with the latest job; a job re-sent for a retarget moves it forward. */
  private lastNtime = 0;

  private submitted = 0;
  private invalid = 0;
  private malformed = 0;

  constructor(
    private readonly services: SessionServices,
    private readonly transport: SessionTransport,
  ) {
    const { port } = services;
    this.connectedAt = services.now();
    this.bounds = { min: port.minDifficulty, max: port.maxDifficulty };
    this.difficulty = clampDifficulty(port.startDifficulty, this.bounds);
    this.target = services.pow.targetForDifficulty(this.difficulty);
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
    return this.extranonce1 !== undefined && this.workers.size > 0 && !this.closed;
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
  onJob(entry: JobEntry, cleanJobs: boolean): void {
    this.sendJob(entry, cleanJobs);
  }

  /** Periodic housekeeping: lowers the difficulty of a session that stopped sending shares. */
  tick(now: number): void {
    if (!this.ready || !this.difficultySent) return;
    const next = checkIdle(this.services.vardiff, this.bounds, this.vardiff, this.currentDifficulty(), now);
    if (next !== undefined) this.changeDifficulty(next);
  }

  /** Called once the socket is gone; frees the extranonce1. */
  dispose(): void {
    this.closed = true;
    this.queue.stop();
    if (this.extranonce1) this.services.extranonces.release(this.extranonce1);
    this.extranonce1 = undefined;
  }

  /** Ends the connection; `abusive` asks the listener to ban the address. */
  close(reason: string, abusive: boolean): void {
    if (this.closed) return;
    this.closed = true;
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
        this.subscribe(id);
        return undefined;
      case 'mining.authorize':
        return this.authorize(id, request.login, request.password);
      case 'mining.configure':
        this.configure(id, request.extensions, request.parameters);
        return undefined;
      case 'mining.suggest_difficulty':
        this.suggestDifficulty(id, request.difficulty);
        return undefined;
      case 'mining.extranonce.subscribe':
        this.extranonceSubscribe(id);
        return undefined;
      case 'mining.submit':
        this.submit(id, request);
        return undefined;
      case 'unknown':
        this.write(errorLine(id, StratumError.Other, `Unknown method ${request.name}`));
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

  private subscribe(id: RpcId): void {
    if (!this.extranonce1) {
      this.extranonce1 = this.services.extranonces.allocate();
      const size = this.services.jobs.current()?.job.extranonceSize ?? EXTRANONCE1_SIZE * 2;
      this.extranonce2Size = size - EXTRANONCE1_SIZE;
    }
    const en1 = this.extranonce1.hex;
    const subscriptions = [
      ['mining.set_difficulty', en1],
      ['mining.notify', en1],
    ];
    this.write(resultLine(id, [subscriptions, en1, this.extranonce2Size]));
    if (this.ready && !this.difficultySent) this.sendCurrentJob(true);
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
    this.workers.set(loginText, login);
    if (login.xnsub && this.services.port.kind === 'xnsub') this.xnsub = true;
    const asked = requestedDifficulty(password);
    if (asked !== undefined) this.requestDifficulty(asked);
    this.write(resultLine(id, true));
    if (first && this.ready) this.sendCurrentJob(true);
  }

  private configure(id: RpcId, extensions: string[], parameters: Record<string, unknown>): void {
    const outcome = negotiateExtensions(extensions, parameters, {
      min: this.services.port.minDifficulty,
      max: this.bounds.max,
      extranonceSubscribe: this.services.port.kind === 'xnsub',
    });
    if (outcome.versionMask !== undefined) this.versionMask = outcome.versionMask;
    if (outcome.extranonceSubscribe) this.xnsub = true;
    this.write(resultLine(id, outcome.result));
    if (outcome.minimumDifficulty !== undefined) {
      this.bounds.min = outcome.minimumDifficulty;
      if (this.currentDifficulty() < this.bounds.min) this.requestDifficulty(this.bounds.min);
    }
  }

  private suggestDifficulty(id: RpcId, difficulty: number): void {
    this.requestDifficulty(difficulty);
    this.write(resultLine(id, true));
  }

  private extranonceSubscribe(id: RpcId): void {
    const ok = this.services.port.kind === 'xnsub';
    if (ok) this.xnsub = true;
    this.write(resultLine(id, ok));
  }

  private submit(id: RpcId, request: SubmitRequest): void {
    const { services } = this;
    if (!this.extranonce1) {
      this.write(errorLine(id, StratumError.NotSubscribed));
      return;
    }
    const login = this.workers.get(request.worker);
    if (!login) {
      this.write(errorLine(id, StratumError.Unauthorized));
      return;
    }
    const now = services.now();
    const found = this.issued.lookup(request.jobId);
    const { issued } = found;
    const verdict = validateShare(
      {
        issued,
        unknownJob: found.issued === undefined ? found.reason : 'job-not-found',
        extranonce1: this.extranonce1.bytes,
        extranonce1Hex: this.extranonce1.hex,
        versionMask: this.versionMask,
        now,
        pow: services.pow,
      },
      request,
    );
    if (issued && verdict.key !== undefined && !issued.entry.stale) issued.entry.seen.add(verdict.key);
    this.submitted++;
    this.lastShareAt = now;
    const { algorithm } = services.port;

    if (!verdict.accepted) {
      const kind = verdict.reason === 'stale' ? 'stale' : 'invalid';
      services.shares.record(algorithm, login.account, login.worker, { kind, reason: verdict.reason }, now);
      services.metrics.share(algorithm, kind, verdict.reason);
      this.write(errorLine(id, verdict.code, REJECT_MESSAGES[verdict.reason]));
      if (kind === 'invalid') this.invalid++;
      const { maxInvalidShareRatio, invalidShareMinShares } = services.limits;
      if (this.submitted >= invalidShareMinShares && this.invalid / this.submitted > maxInvalidShareRatio) {
        services.metrics.refused('invalid-shares');
        this.close('too many invalid shares', true);
      }
      return;
    }

    services.shares.record(
      algorithm,
      login.account,
      login.worker,
      { kind: 'valid', difficulty: verdict.difficulty },
      now,
    );
    services.metrics.share(algorithm, 'valid', '');
    this.write(resultLine(id, true));
    if (verdict.isBlock && issued) {
      services.blocks.submit({
        source: services.jobs.source,
        job: issued.entry.job,
        extranonce1: this.extranonce1.bytes,
        share: verdict.share,
        account: login.account,
        worker: login.worker,
        difficulty: verdict.difficulty,
      });
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

  /** A difficulty the miner asked for (password d=N, suggest_difficulty), within the port's bounds. */
  private requestDifficulty(difficulty: number): void {
    const clamped = clampDifficulty(roundDifficulty(difficulty), this.bounds);
    if (!this.difficultySent) {
      this.difficulty = clamped;
      this.target = this.services.pow.targetForDifficulty(clamped);
    } else {
      this.changeDifficulty(clamped);
    }
  }

  /**
   * A new difficulty applies to the jobs sent from now on; jobs already sent keep theirs. It goes out
   * at once with the current job re-sent under a new id, and `sendJob` moves its ntime forward so
   * that the work differs: a miner that only switches when the header bytes change (cpuminer 2.5.1)
   * does switch, and one that restarts its nonces on every new job id (cpuminer-opt) hashes new
   * headers, not ones it has already sent. (MiningCore re-sends the very same job, ckpool waits for
   * the next template; the first leaves old work running, the second a miner far off target for up
   * to a template interval.) When ntime cannot move further ahead, the next job carries it.
   */
  private changeDifficulty(difficulty: number): void {
    if (difficulty === this.currentDifficulty()) return;
    this.pendingDifficulty = difficulty;
    restartWindow(this.vardiff, this.services.now());
    this.services.log.debug({ remote: this.transport.remoteAddress, difficulty }, 'vardiff retarget');
    const current = this.services.jobs.current();
    if (!current) return;
    const lead = this.nextNtime(current) - Math.floor(this.services.now() / 1000);
    if (lead <= MAX_NTIME_LEAD_SECONDS) this.sendJob(current, false);
  }

  /**
   * Within one block every job a session is sent carries a later ntime than the one before, so no two
   * of its jobs share a header (a retarget re-sends the same template; a refreshed template may keep
   * the same transactions).
   */
  private nextNtime(entry: JobEntry): number {
    const sameBlock = this.issued.latest?.blockKey === entry.blockKey;
    return sameBlock ? Math.max(entry.job.curtime, this.lastNtime + 1) : entry.job.curtime;
  }

  private sendCurrentJob(cleanJobs: boolean): void {
    const current = this.services.jobs.current();
    if (current) this.sendJob(current, cleanJobs);
  }

  private sendJob(entry: JobEntry, cleanJobs: boolean): void {
    if (!this.ready || !this.extranonce1) return;
    const size = entry.job.extranonceSize - EXTRANONCE1_SIZE;
    if (size !== this.extranonce2Size) {
      if (!this.xnsub) {
        this.close('extranonce2 size changed', false);
        return;
      }
      this.extranonce2Size = size;
      this.write(notificationLine('mining.set_extranonce', [this.extranonce1.hex, size]));
    }
    if (this.pendingDifficulty !== undefined) {
      this.difficulty = this.pendingDifficulty;
      this.target = this.services.pow.targetForDifficulty(this.difficulty);
      this.pendingDifficulty = undefined;
      this.difficultySent = false;
    }
    if (!this.difficultySent) {
      this.write(notificationLine('mining.set_difficulty', [this.difficulty]));
      this.difficultySent = true;
    }
    const ntime = this.nextNtime(entry);
    const id = this.issued.issue(entry, this.difficulty, this.target);
    this.lastNtime = ntime;
    this.write(notifyLine(id.toString(16), entry.job, cleanJobs, ntime));
  }
}
