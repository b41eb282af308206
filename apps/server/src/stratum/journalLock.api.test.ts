/**
 * Issue 32, point 7: two stratum processes with the same NODE_NAME and DATA_DIR (both default to the
 * host's name and ./data) shared one share journal, and each start deleted the other's files. The
 * journal is now locked like the embedded database: a second stratum on it refuses to start, names the
 * holder and the setting to change, and leaves the first one's files alone.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirError } from '@lodestone/db';
import { afterEach, describe, expect, it } from 'vitest';
import { bitcoinWork } from '../chains/bitcoin/index.js';
import { SILENT_LOG } from './log.js';
import { type StratumServer, startStratum } from './startStratum.js';
import { FixtureJobSource } from './testing/fixtureJobs.js';
import { RecordingBus } from './testing/harness.js';

const servers: StratumServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

function start(journalDirectory: string) {
  return startStratum({
    node: 'rig-host',
    listeners: [{ algorithm: 'sha256', host: '127.0.0.1', port: 0, kind: 'standard' }],
    work: [bitcoinWork(new FixtureJobSource({ algorithm: 'sha256' }))],
    bus: new RecordingBus(),
    log: SILENT_LOG,
    journalDirectory,
    flushIntervalMs: 60_000,
  });
}

describe('the share journal of a stratum node', () => {
  it('belongs to one stratum at a time: a second on it refuses to start and leaves its files alone', async () => {
    const directory = path.join(mkdtempSync(path.join(tmpdir(), 'lodestone-journal-lock-')), 'rig-host');
    const first = await start(directory);
    servers.push(first);
    const sharesLog = path.join(directory, 'shares.log');
    expect(existsSync(sharesLog)).toBe(true);
    const before = readFileSync(sharesLog);

    const second = start(directory);
    await expect(second).rejects.toThrow(DataDirError);
    await expect(second).rejects.toThrow(`NODE_NAME: ${directory} is in use by process ${process.pid} (since `);
    await expect(second).rejects.toThrow(
      'Each stratum process keeps its own share journal: give every process on this DATA_DIR its own NODE_NAME.',
    );
    expect(readFileSync(sharesLog)).toEqual(before);

    // Once the first has stopped, the journal is free again.
    await first.stop();
    servers.splice(0);
    servers.push(await start(directory));
  });
});
