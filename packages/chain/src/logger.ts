/** The logging this package does; pino's logger satisfies it. */
export interface ChainLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
