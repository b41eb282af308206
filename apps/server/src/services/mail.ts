import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config/config.js';
import type { ServiceLog } from './log.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Where replies go (for example the applicant of a VIP application); default: the sender. */
  replyTo?: string;
  /** Further header fields, e.g. List-Unsubscribe (RFC 2369) on notifications. */
  headers?: Record<string, string>;
  /** Files sent with the text (multipart/mixed), e.g. the PDF statements of a monthly report. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mailer {
  /** Resolves once the message is handed to the mail server (or written to the outbox). */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** SMTP_URL; unset: messages go to `outboxDir` as .eml files. */
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string;
  log: ServiceLog;
}

/**
 * E-mail through nodemailer. With an SMTP server configured, messages go there; without one (the
 * embedded default), each message is written to the outbox folder as an .eml file any mail program
 * opens, and its path is logged, so a newcomer can follow a password-recovery link locally.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { from, log } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from, ...message });
        log.info({ messageId: info.messageId, subject: message.subject }, 'e-mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const id = String(info.messageId).replace(/[^A-Za-z0-9.-]/g, '');
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ file, subject: message.subject }, 'e-mail written to the outbox (no SMTP_URL set)');
    },
    close: () => transport.close(),
  };
}

/** The pool's mailer as configured (SMTP_URL, MAIL_FROM; without SMTP the outbox under DATA_DIR). */
export function configuredMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: ServiceLog): Mailer {
  return createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
  });
}
