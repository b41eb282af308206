/**
 * Proof-of-work throughput on one core: hashes per second for each algorithm (time-boxed, 1 s each;
 * `--short` for 0.2 s), the same with the share check (hash + meetsTarget), and for SHA256 and SCRYPT
 * the ratio to a native reference measured in the same run (node:crypto called directly), which shows
 * the overhead of our wrapper. Every iteration hashes a different nonce, as share validation does.
 * Each figure is the best of five interleaved slices (see `rates`): the machine may be shared.
 *
 *   npm run bench --workspace=@lodestone/pow [-- --short]
 */
import { createHash, hash as oneShotHash, scryptSync } from 'node:crypto';
import { kaspaPowInput, POW, type PowAlgorithm, SCRYPT_DIFF1_TARGET } from '../src/index.js';
import { heavyHashMatrixFor } from '../src/kheavyhash.js';

const seconds = process.argv.includes('--short') ? 0.2 : 1;

/** Calls `step(i)` for about `budgetMs` milliseconds and returns calls per second. */
function slice(step: (i: number) => unknown, budgetMs: number): number {
  let i = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let k = 0; k < 16; k++) step(i++);
    elapsed = performance.now() - start;
  } while (elapsed < budgetMs);
  return (i * 1000) / elapsed;
}

/**
 * Calls per second of each step, measured in five interleaved slices per step (so steps compared with
 * each other run under the same conditions) after a warm-up; the best slice counts, which filters out
 * the moments another process takes the core. Total time ≈ `seconds` per step.
 */
function rates(...steps: ((i: number) => unknown)[]): number[] {
  for (const step of steps) slice(step, Math.max(50, seconds * 200));
  const best = steps.map(() => 0);
  for (let round = 0; round < 5; round++) {
    steps.forEach((step, s) => {
      best[s] = Math.max(best[s] as number, slice(step, (seconds * 1000) / 5));
    });
  }
  return best;
}

function withNonce(input: Uint8Array, offset: number, width: 4 | 8): (i: number) => Uint8Array {
  const view = new DataView(input.buffer, input.byteOffset, input.length);
  return (i) => {
    if (width === 4) view.setUint32(offset, i >>> 0, true);
    else view.setBigUint64(offset, BigInt(i), true);
    return input;
  };
}

const fill = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 0xff);
const header80 = withNonce(fill(80), 76, 4);

interface Case {
  algorithm: PowAlgorithm;
  input: (i: number) => Uint8Array;
  /** Native references: the first is the one the ratio is printed against. */
  native?: { name: string; step: (i: number) => unknown }[];
}

const cases: Case[] = [
  {
    algorithm: POW.sha256,
    input: header80,
    native: [
      {
        name: 'createHash sha256 ×2',
        step: (i) =>
          createHash('sha256')
            .update(createHash('sha256').update(header80(i)).digest())
            .digest(),
      },
      {
        name: 'crypto.hash sha256 ×2, the primitive we call',
        step: (i) => oneShotHash('sha256', oneShotHash('sha256', header80(i), 'buffer'), 'buffer'),
      },
    ],
  },
  {
    algorithm: POW.scrypt,
    input: header80,
    native: [
      {
        name: 'scryptSync',
        step: (i) => {
          const h = header80(i);
          return scryptSync(h, h, 32, { N: 1024, r: 1, p: 1, maxmem: 1 << 20 });
        },
      },
    ],
  },
  { algorithm: POW.x11, input: header80 },
  { algorithm: POW.blake2s, input: withNonce(fill(286), 278, 8) },
  { algorithm: POW.eaglesong, input: withNonce(fill(48), 32, 8) },
  { algorithm: POW.kheavyhash, input: withNonce(kaspaPowInput(fill(32), 1_700_000_000_000n, 0n), 72, 8) },
];

const format = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);

console.log(`proof of work, one core, ${seconds} s per measurement (node ${process.version})`);
console.log(`${'algorithm'.padEnd(12)}${'hashes/s'.padStart(12)}${'hash+check/s'.padStart(14)}   native reference`);
for (const { algorithm, input, native } of cases) {
  const target = algorithm.key === 'scrypt' ? SCRYPT_DIFF1_TARGET : algorithm.diff1Target;
  const hash = (i: number) => algorithm.hash(input(i));
  const check = (i: number) => algorithm.meetsTarget(algorithm.hash(input(i)), target);
  const [hashes = 0, checks = 0, ...nativeRates] = rates(hash, check, ...(native ?? []).map((n) => n.step));
  const reference = (native ?? [])
    .map((n, k) => {
      const r = nativeRates[k] ?? 0;
      return `${format(r).trim()}/s ${n.name} (ours = ${(hashes / r).toFixed(3)} ×)`;
    })
    .join('; ');
  console.log(`${algorithm.key.padEnd(12)}${format(hashes)}${format(checks).padStart(14)}   ${reference}`);
}

const seed = fill(32);
const [jobs = 0] = rates((i) => {
  seed[0] = i & 0xff;
  seed[1] = (i >>> 8) & 0xff;
  seed[2] = (i >>> 16) & 0xff;
  return heavyHashMatrixFor(seed);
});
console.log(`kheavyhash matrix generation (new job, cache miss): ${format(jobs).trim()}/s`);
