import { describe, expect, it } from 'vitest';
import { errorLine, LineFramer, notificationLine, parseLine, resultLine, StratumError } from './protocol.js';

const lines = (framer: LineFramer, ...chunks: string[]) =>
  chunks.flatMap((c) => framer.push(Buffer.from(c))).map((item) => (item.kind === 'line' ? item.line : 'OVERFLOW'));

describe('LineFramer', () => {
  it('splits lines across and within chunks, LF or CRLF, skipping blank lines', () => {
    const framer = new LineFramer(100);
    expect(lines(framer, '{"a":1}\n{"b"', ':2}\r\n\n', '{"c":3}\n{"d":')).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(lines(framer, '4}\n')).toEqual(['{"d":4}']);
  });

  it('reports an over-long line once and resumes after its newline', () => {
    const framer = new LineFramer(10);
    expect(lines(framer, '0123456789', 'abc', 'def\nok\n')).toEqual(['OVERFLOW', 'ok']);
    expect(lines(framer, '0123456789\n')).toEqual(['0123456789']);
  });

  it('decodes UTF-8 split between chunks', () => {
    const framer = new LineFramer(100);
    const bytes = Buffer.from('"é"\n');
    const items = [...framer.push(bytes.subarray(0, 2)), ...framer.push(bytes.subarray(2))];
    expect(items).toEqual([{ kind: 'line', line: '"é"' }]);
  });
});

describe('parseLine', () => {
  it('parses the methods every dialect shares, and hands the rest to the dialect as sent', () => {
    expect(parseLine('{"id":1,"method":"mining.subscribe","params":["cgminer/4.10"]}')).toEqual({
      kind: 'request',
      id: 1,
      request: { method: 'mining.subscribe', params: ['cgminer/4.10'] },
    });
    expect(parseLine('{"id":2,"method":"mining.authorize","params":["alice.rig1",null]}')).toEqual({
      kind: 'request',
      id: 2,
      request: { method: 'mining.authorize', login: 'alice.rig1', password: '' },
    });
    expect(
      parseLine(
        '{"id":"x","method":"mining.submit","params":["alice.rig1","1","00000001","5f5e1000","deadbeef","00002000"]}',
      ),
    ).toEqual({
      kind: 'request',
      id: 'x',
      request: {
        method: 'mining.submit',
        worker: 'alice.rig1',
        jobId: '1',
        params: ['alice.rig1', '1', '00000001', '5f5e1000', 'deadbeef', '00002000'],
      },
    });
    expect(parseLine('{"id":3,"method":"mining.suggest_difficulty","params":["512"]}')).toMatchObject({
      request: { method: 'mining.suggest_difficulty', difficulty: 512 },
    });
    expect(
      parseLine(
        '{"id":4,"method":"mining.configure","params":[["version-rolling"],{"version-rolling.mask":"ffffffff"}]}',
      ),
    ).toMatchObject({
      request: {
        method: 'other',
        name: 'mining.configure',
        params: [['version-rolling'], { 'version-rolling.mask': 'ffffffff' }],
      },
    });
    expect(parseLine('{"id":6,"method":"client.get_version"}')).toMatchObject({
      request: { method: 'other', name: 'client.get_version', params: [] },
    });
  });

  it('turns anything unusable into invalid, keeping the id when there is one', () => {
    expect(parseLine('not json')).toEqual({ kind: 'invalid', id: null, reason: 'not JSON' });
    expect(parseLine('[1,2]')).toMatchObject({ kind: 'invalid', id: null });
    expect(parseLine('{"id":7,"method":42}')).toMatchObject({ kind: 'invalid', id: 7 });
    expect(parseLine('{"id":8,"method":"mining.submit","params":"x"}')).toMatchObject({ kind: 'invalid', id: 8 });
    expect(parseLine('{"id":9,"method":"mining.submit","params":["w",1,"00","00","00"]}')).toMatchObject({
      kind: 'invalid',
      id: 9,
    });
    expect(parseLine('{"id":10,"method":"mining.authorize","params":[{"a":1}]}')).toMatchObject({
      kind: 'invalid',
      id: 10,
    });
    expect(parseLine('{"id":11,"method":"mining.suggest_difficulty","params":[-1]}')).toMatchObject({
      kind: 'invalid',
    });
    expect(
      parseLine(`{"id":12,"method":"mining.submit","params":["${'w'.repeat(300)}","1","00","00","00"]}`),
    ).toMatchObject({
      kind: 'invalid',
    });
    expect(parseLine('{"id":{"nested":true},"method":"mining.subscribe"}')).toMatchObject({
      kind: 'request',
      id: null,
    });
  });

  it('recognizes answers from the miner', () => {
    expect(parseLine('{"id":5,"result":"cgminer/4.10","error":null}')).toEqual({ kind: 'response', id: 5 });
  });
});

describe('serialization', () => {
  it('writes JSON-RPC 1.0 lines', () => {
    expect(resultLine(1, true)).toBe('{"id":1,"result":true,"error":null}\n');
    expect(errorLine(2, StratumError.Duplicate)).toBe('{"id":2,"result":null,"error":[22,"Duplicate share",null]}\n');
    expect(errorLine(3, StratumError.LowDifficulty, 'Low difficulty share')).toContain('[23,');
    expect(notificationLine('mining.set_difficulty', [16])).toBe(
      '{"id":null,"method":"mining.set_difficulty","params":[16]}\n',
    );
  });
});
