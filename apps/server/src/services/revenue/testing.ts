import { inflateSync } from 'node:zlib';

/**
 * Tests only: the lines of text a PDF made by pdfkit shows, in drawing order. Page streams are
 * inflated when compressed (/FlateDecode), and the hex strings of each text operator (TJ arrays, whose
 * numbers are only kerning) are decoded as the standard fonts' Windows-1252. Enough to check what a
 * statement says without a PDF library.
 */
export function pdfTextLines(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const decoder = new TextDecoder('windows-1252');
  const lines: string[] = [];
  const streams = /<<([\s\S]*?)>>\s*stream\r?\n/g;
  for (let m = streams.exec(text); m; m = streams.exec(text)) {
    const length = Number(/\/Length (\d+)/.exec(m[1] ?? '')?.[1]);
    if (!Number.isFinite(length)) continue;
    const start = m.index + m[0].length;
    let body = pdf.subarray(start, start + length);
    if ((m[1] ?? '').includes('/FlateDecode')) body = inflateSync(body);
    const content = body.toString('latin1');
    const ops = /\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g;
    for (let op = ops.exec(content); op; op = ops.exec(content)) {
      const hexes =
        op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1] ?? '') : [op[2] ?? ''];
      lines.push(hexes.map((h) => decoder.decode(Buffer.from(h, 'hex'))).join(''));
    }
  }
  return lines;
}
