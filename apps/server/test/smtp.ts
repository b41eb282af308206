import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as received. */
  raw: string;
  /** The text body, quoted-printable soft line breaks and escapes undone. */
  text: string;
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
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: decodeQuotedPrintable(body.trim()),
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
