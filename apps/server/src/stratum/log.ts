/** The logging stratum needs; a pino logger fits it. */
export interface StratumLog {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** For tests and tools that want no output. */
export const SILENT_LOG: StratumLog = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
