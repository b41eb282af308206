import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { LOG_SERIALIZERS } from './http/logging.js';

/** LOG_FORMAT (docs/configuration.md): readable lines at a terminal, JSON lines for a log collector. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** True when the process's log lines are for a person to read: asked for, or `auto` on a terminal. */
export function prettyLogs(format: LogFormat, isTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && isTerminal);
}

/**
 * The process's logger. JSON lines unless they are for a person: then one readable line each, the
 * time of day first, without the pid and host a terminal does not need (pino-pretty, written in this
 * thread so a line is out before the process exits).
 */
export function createProcessLog(
  level: string,
  format: LogFormat,
  destination: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): Logger {
  const options = { level, serializers: LOG_SERIALIZERS };
  const terminal = destination.isTTY === true;
  if (!prettyLogs(format, terminal)) return pino(options, destination);
  const lines = pretty({
    destination,
    colorize: terminal,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
  return pino(options, lines);
}
