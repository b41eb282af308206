import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { ServiceLog } from '../src/services/log.js';
import { createMailer, type Mailer } from '../src/services/mail.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as received. */
  raw: string;
  /**
   * The text body, quoted-printable soft line breaks and escapes undone (of a multipart message: its
   * text/plain part).
   */
  text: string;
  /** The parts of a multipart message sent as attachments, decoded, in order. */
  attachments: ReceivedAttachment[];
}

export interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

interface MimePart {
  headers: Map<string, string>;
  body: string;
}

/** Header fields by lower-case name, folded lines unfolded. */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function headerParam(value: string | undefined, name: string): string | undefined {
  return value ? new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(value)?.[1] : undefined;
}

/** A message or part split into headers and body; multipart bodies into their leaf parts. */
function mimeLeaves(raw: string): MimePart[] {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(split >= 0 ? raw.slice(0, split) : raw);
  const body = split >= 0 ? raw.slice(split).replace(/^\r?\n\r?\n/, '') : '';
  const boundary = headerParam(headers.get('content-type'), 'boundary');
  if (!boundary) return [{ headers, body }];
  const parts = body.split(`--${boundary}`).slice(1);
  return parts.filter((part) => !part.startsWith('--')).flatMap((part) => mimeLeaves(part.replace(/^\r?\n/, '')));
}

function decodePart(part: MimePart): Buffer {
  const encoding = part.headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(part.body.trimEnd()), 'utf8');
  return Buffer.from(part.body.replace(/\r?\n$/, ''), 'utf8');
}

export interface TestSmtpServer {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the next message to arrive (or one that arrived since the last call). */
  next(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

/** A real SMTP server in the test process (no TLS, no auth), collecting what the pool sends. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let read = 0;
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headerEnd = raw.search(/\r?\n\r?\n/);
        const body = headerEnd >= 0 ? raw.slice(headerEnd) : '';
        const leaves = mimeLeaves(raw);
        const textPart = leaves.find((p) => (p.headers.get('content-type') ?? 'text/plain').startsWith('text/plain'));
        const attachments = leaves
          .filter((p) => p.headers.get('content-disposition')?.toLowerCase().startsWith('attachment'))
          .map((p) => ({
            filename:
              headerParam(p.headers.get('content-disposition'), 'filename') ??
              headerParam(p.headers.get('content-type'), 'name') ??
              '',
            contentType: (p.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '',
            content: decodePart(p),
          }));
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text:
            leaves.length > 1 && textPart ? decodePart(textPart).toString('utf8') : decodeQuotedPrintable(body.trim()),
          attachments,
        });
        for (const wake of waiting.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (read >= messages.length) {
        if (Date.now() > deadline) throw new Error('no e-mail arrived');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages[read++] as ReceivedMail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SMTP address where nothing listens (a port taken and released): every send is refused. */
export async function deadSmtpUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

/** Real mailers on the given SMTP addresses, made as a test needs them and closed together. */
export function testMailers(log: ServiceLog): { mailer(smtpUrl: string): Mailer; closeAll(): void } {
  const made: Mailer[] = [];
  // Unused with an SMTP address; createMailer wants its fallback folder all the same.
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'mailers-'));
  return {
    mailer(smtpUrl) {
      const m = createMailer({ smtpUrl, from: 'Lodestone <no-reply@example.org>', outboxDir, log });
      made.push(m);
      return m;
    },
    closeAll: () => {
      for (const m of made.splice(0)) m.close();
    },
  };
}
