/** The logging services need; pino and Fastify's logger fit it. */
export interface ServiceLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
