import net from 'node:net';
import tls from 'node:tls';
import { normalizeAddress } from '../net/address.js';
import { listenDualStack } from '../net/dualStack.js';
import type { ProxyProtocolPolicy } from '../net/proxyProtocol.js';
import type { AddressGuard } from './addressGuard.js';
import type { CapRefusal, ConnectionBudget } from './capacity.js';
import type { StratumLog } from './log.js';
import type { StratumMetrics } from './metrics.js';
import { LineFramer } from './protocol.js';
import { type PortSettings, Session, type SessionServices, type SessionTransport } from './session.js';

export interface ConnectionLimits {
  /** Longest accepted line; a longer one is answered with an error and the connection closed. */
  maxLineBytes: number;
  maxConnectionsPerAddress: number;
  /** A connection that has not authorized a worker after this long is closed. */
  authorizeTimeoutMs: number;
  /** …and after this long while the process is near its connection cap (capacity.ts). */
  pressureAuthorizeTimeoutMs: number;
  /** An authorized connection that sent no share for this long is closed. */
  inactivityTimeoutMs: number;
  /** How long an address stays banned after abuse. */
  banMs: number;
  /** Bytes queued for a miner that does not read; above this the connection is dropped. */
  maxWriteBufferBytes: number;
  /** How often sessions are checked for inactivity and idle vardiff. */
  sweepIntervalMs: number;
}

/** A stratum+ssl connection that has not finished its TLS handshake by then is closed. */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxLineBytes: 8 * 1024,
  maxConnectionsPerAddress: 100,
  authorizeTimeoutMs: 30_000,
  pressureAuthorizeTimeoutMs: 5_000,
  inactivityTimeoutMs: 15 * 60_000,
  banMs: 10 * 60_000,
  maxWriteBufferBytes: 1024 * 1024,
  sweepIntervalMs: 5_000,
};

export interface ListenerSetup {
  host: string;
  port: number;
  tls?: { key: string | Buffer; cert: string | Buffer } | undefined;
  settings: PortSettings;
  services: SessionServices;
  guard: AddressGuard;
  /** The process's stratum connections, shared by every listener. */
  budget: ConnectionBudget;
  /** Balancers that may name the miner's address in a PROXY header (unset or empty: none). */
  proxy?: ProxyProtocolPolicy | undefined;
  /** This listener's own cap (at most the budget's). */
  maxConnections: number;
  limits: ConnectionLimits;
  metrics: StratumMetrics;
  log: StratumLog;
  /**
   * Holds every write until the accepted shares before it are journaled (ShareJournal.afterShares),
   * so that no miner hears "true" for a share a crash could lose. Unset: writes go out at once.
   */
  afterShares?: ((write: () => void) => void) | undefined;
}

export interface RunningListener {
  readonly host: string;
  /** The bound port (the configured one, or the one the OS chose for port 0). */
  readonly port: number;
  readonly tls: boolean;
  readonly sessionCount: number;
  /**
   * Stops accepting and asks every miner to reconnect (to `host` on this port, or where it connected);
   * sessions stay open and keep mining until they leave or `close()`.
   */
  drain(host: string | undefined): void;
  /** Resolves once the listener has no session left (at once when it has none). */
  whenEmpty(): Promise<void>;
  /** Stops accepting, closes every session (ending their sockets) and resolves once all are gone. */
  close(): Promise<void>;
}

/**
 * One stratum port: a TCP (or TLS) server whose connections each get a Session. The listener owns
 * the socket side only: admission (bans, per-address limit), line framing, flow control in both
 * directions, timeouts, and never letting a socket error reach the process.
 */
export async function openListener(setup: ListenerSetup): Promise<RunningListener> {
  const { settings, services, guard, budget, limits, metrics, log, afterShares } = setup;
  const sessions = new Map<Session, net.Socket>();
  /** Who waits for the last session to end (a drain). */
  const emptied: (() => void)[] = [];
  /** Sockets admitted on this listener (TLS handshakes included). */
  let open = 0;

  /** Closes sessions that authorized no worker within the short timeout (under connection pressure). */
  const shedUnauthorized = () => {
    const now = services.now();
    for (const session of sessions.keys()) {
      if (!session.authorized && now - session.connectedAt >= limits.pressureAuthorizeTimeoutMs) {
        session.close('no worker authorized in time (connection pressure)', false);
      }
    }
  };
  const stopShedding = budget.onShed(shedUnauthorized);

  // A cap that is hit is logged once per 10 s with how many were refused, never once per socket.
  let refusedSinceWarning = 0;
  let lastWarning = Number.NEGATIVE_INFINITY;
  let lastShed = Number.NEGATIVE_INFINITY;
  const capHit = (reason: CapRefusal) => {
    metrics.refused(reason);
    refusedSinceWarning++;
    const now = performance.now();
    if (now - lastWarning >= 10_000) {
      log.warn(
        {
          port: settings.port,
          reason,
          refused: refusedSinceWarning,
          open: budget.count,
          processCap: budget.maxConnections,
          listenerCap: setup.maxConnections,
        },
        'stratum connection cap reached: refusing new connections',
      );
      lastWarning = now;
      refusedSinceWarning = 0;
    }
    if (now - lastShed >= 1_000) {
      lastShed = now;
      budget.shed();
    }
  };

  const startSession = (socket: net.Socket, address: string) => {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    const framer = new LineFramer(limits.maxLineBytes);
    /** Why the socket went when the session did not close it: what the worker's connection history says. */
    let lost: string | undefined;
    socket.once('error', (error: NodeJS.ErrnoException) => {
      lost ??= `connection error${error.code ? ` (${error.code})` : ''}`;
    });
    let writeBlocked = false;
    let queueBlocked = false;
    const applyReadState = () => {
      if (writeBlocked || queueBlocked) socket.pause();
      else socket.resume();
    };
    const send = (text: string) => {
      if (socket.destroyed || !socket.writable) return;
      if (socket.write(text)) return;
      if (socket.writableLength > limits.maxWriteBufferBytes) {
        log.info({ remote: address }, 'stratum client does not read its answers; disconnecting');
        lost = 'does not read its answers';
        socket.destroy();
      } else if (!writeBlocked) {
        writeBlocked = true;
        applyReadState();
        socket.once('drain', () => {
          writeBlocked = false;
          applyReadState();
        });
      }
    };
    const transport: SessionTransport = {
      remoteAddress: address,
      write: afterShares ? (text) => afterShares(() => send(text)) : send,
      close(reason, abusive) {
        // Rental marketplaces (NiceHash) proxy many customers through few addresses: an abusive
        // session there is closed, but its address is not banned for everyone behind it.
        const ban = abusive && settings.kind !== 'marketplace';
        const fields = { remote: address, port: settings.port, reason };
        if (ban) log.info(fields, 'closing stratum connection and banning its address');
        else log.debug(fields, 'closing stratum connection');
        if (ban) guard.ban(address, limits.banMs);
        const end = () => {
          socket.end();
          setTimeout(() => socket.destroy(), 1000).unref();
        };
        // After the answers written before it, which may be held behind the share journal.
        if (afterShares) afterShares(end);
        else end();
      },
      setReadPaused(paused) {
        queueBlocked = paused;
        applyReadState();
      },
    };
    const session = new Session(services, transport);
    sessions.set(session, socket);
    metrics.sessionOpened(settings.algorithm, settings.kind);
    const authorizeTimer = setTimeout(() => {
      if (!session.authorized) session.close('no worker authorized in time', false);
    }, limits.authorizeTimeoutMs);
    authorizeTimer.unref();

    socket.on('data', (chunk: Buffer) => {
      for (const item of framer.push(chunk)) {
        if (item.kind === 'overflow') {
          session.lineTooLong();
          return;
        }
        session.receive(item.line);
      }
    });
    socket.on('close', () => {
      clearTimeout(authorizeTimer);
      sessions.delete(session);
      if (sessions.size === 0) for (const resolve of emptied.splice(0)) resolve();
      session.dispose(lost);
      metrics.sessionClosed(settings.algorithm, settings.kind);
    });
  };

  /** Counts a raw TCP connection against the caps; false (the socket destroyed) when one is reached. */
  const reserve = (socket: net.Socket): boolean => {
    socket.on('error', (error) =>
      log.debug({ err: error, remote: normalizeAddress(socket.remoteAddress) }, 'stratum socket error'),
    );
    const capped = budget.admit(open, setup.maxConnections);
    if (capped) {
      socket.destroy();
      capHit(capped);
      return false;
    }
    open++;
    budget.opened();
    socket.once('close', () => {
      open--;
      budget.closed();
    });
    return true;
  };

  /** The miner's address: the peer's, or the one a listed balancer's PROXY header names (undefined: refused). */
  const clientAddress = async (socket: net.Socket): Promise<string | undefined> => {
    if (!setup.proxy?.enabled) return normalizeAddress(socket.remoteAddress);
    const verdict = await setup.proxy.accept(socket, limits.authorizeTimeoutMs);
    if ('address' in verdict) return verdict.address;
    metrics.refused('proxy-protocol');
    log.info({ remote: normalizeAddress(socket.remoteAddress), reason: verdict.refused }, 'stratum connection refused');
    socket.destroy();
    return undefined;
  };

  /** Bans and the per-address limit, by the miner's own address. */
  const admitAddress = (socket: net.Socket, address: string): boolean => {
    const refusal = guard.admit(address);
    if (refusal) {
      metrics.refused(refusal);
      socket.destroy();
      return false;
    }
    socket.once('close', () => guard.release(address));
    return true;
  };

  const secureContext = setup.tls ? tls.createSecureContext({ key: setup.tls.key, cert: setup.tls.cert }) : undefined;

  /** Every raw TCP connection: caps, then the miner's address, then bans, then (stratum+ssl) TLS. */
  const accept = async (socket: net.Socket) => {
    if (!reserve(socket)) return;
    const address = await clientAddress(socket);
    if (address === undefined || !admitAddress(socket, address)) return;
    if (!secureContext) {
      startSession(socket, address);
      socket.resume();
      return;
    }
    const secure = new tls.TLSSocket(socket, { isServer: true, secureContext });
    const handshake = setTimeout(() => {
      log.debug({ remote: address }, 'stratum TLS handshake timed out');
      secure.destroy();
    }, TLS_HANDSHAKE_TIMEOUT_MS);
    handshake.unref();
    secure.on('error', (error) => log.debug({ err: error, remote: address }, 'stratum TLS socket error'));
    secure.once('close', () => clearTimeout(handshake));
    secure.once('secure', () => {
      clearTimeout(handshake);
      startSession(secure, address);
    });
  };

  const server = net.createServer((socket) => {
    accept(socket).catch((error: unknown) => {
      log.error({ err: error }, 'accepting a stratum connection failed');
      socket.destroy();
    });
  });

  const host = await listenDualStack(
    setup.host,
    (on) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host: on, port: setup.port }, () => {
          server.off('error', reject);
          resolve();
        });
      }),
    (message) => log.warn({ port: setup.port }, `stratum: ${message}`),
  );
  server.on('error', (error) => log.error({ err: error, port: setup.port }, 'stratum listener error'));

  const stopJobs = services.jobs.onJob((entry, cleanJobs) => {
    for (const session of sessions.keys()) {
      try {
        session.onJob(entry, cleanJobs);
      } catch (error) {
        log.error({ err: error, remote: session.remoteAddress }, 'sending a job failed');
        session.close('internal error', false);
      }
    }
  });

  const sweep = setInterval(() => {
    if (budget.underPressure) shedUnauthorized();
    const now = services.now();
    for (const session of sessions.keys()) {
      const last = session.lastShareAt ?? session.connectedAt;
      try {
        if (session.authorized && now - last > limits.inactivityTimeoutMs)
          session.close('no share for too long', false);
        else session.tick(now);
      } catch (error) {
        log.error({ err: error, remote: session.remoteAddress }, 'stratum session housekeeping failed');
        session.close('internal error', false);
      }
    }
  }, limits.sweepIntervalMs);
  sweep.unref();

  /** Closes the listening socket once (drain, then close); resolves when the last connection is gone. */
  let accepting: Promise<void> | undefined;
  const stopAccepting = () => {
    accepting ??= new Promise<void>((resolve) => server.close(() => resolve()));
    return accepting;
  };

  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : setup.port;
  log.info({ algorithm: settings.algorithm, kind: settings.kind, host, port, tls: !!setup.tls }, 'stratum listening');

  return {
    host,
    port,
    tls: !!setup.tls,
    get sessionCount() {
      return sessions.size;
    },
    drain(reconnectHost) {
      stopAccepting();
      const to = reconnectHost === undefined ? undefined : { host: reconnectHost, port };
      for (const session of sessions.keys()) session.askToReconnect(to);
    },
    whenEmpty() {
      if (sessions.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => emptied.push(resolve));
    },
    async close() {
      clearInterval(sweep);
      stopJobs();
      stopShedding();
      const closed = stopAccepting();
      const sockets = [...sessions.values()];
      for (const session of sessions.keys()) session.close('server shutting down', false);
      const gone = Promise.all(sockets.map((s) => (s.destroyed ? undefined : new Promise((r) => s.once('close', r)))));
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, 2000);
      await gone;
      clearTimeout(timer);
      await closed;
    },
  };
}
