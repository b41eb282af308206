import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProcessLog, prettyLogs } from './processLog.js';

/** A stream that keeps what is written to it, as a terminal (isTTY) or a pipe. */
function capture(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk) => {
    text += String(chunk);
  });
  return { stream, text: () => text };
}

describe('the process log', () => {
  it('is readable at a terminal and JSON elsewhere, unless LOG_FORMAT says which', () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
  });

  it('writes one readable line for a person, without pid and host', () => {
    const out = capture(false);
    createProcessLog('info', 'pretty', out.stream).info({ port: 8080 }, 'Lodestone is running');
    const line = out.text();
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Lodestone is running {"port":8080}\n$/);
    expect(line).not.toContain('hostname');
  });

  it('writes JSON lines for a collector', () => {
    const out = capture(false);
    createProcessLog('info', 'auto', out.stream).info({ port: 8080 }, 'Lodestone is running');
    expect(JSON.parse(out.text())).toMatchObject({ level: 30, port: 8080, msg: 'Lodestone is running' });
  });
});
