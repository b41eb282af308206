/**
 * ASERT, the "absolutely scheduled exponentially rising targets" difficulty rule Bitcoin Cash has used
 * since November 2020 (aserti3-2d; specification by Lundeberg et al., Bitcoin ABC
 * `doc/standards/asert.md`, reference code `src/pow.cpp` `CalculateASERT` in Bitcoin Cash Node).
 *
 * The next block's target is the anchor block's target times 2^((time ahead of schedule) / half-life):
 * each block that comes one spacing early makes the next `2^(spacing / halfLife)` times harder, each
 * spacing without a block makes it that much easier. It depends only on the anchor and the parent
 * block, so it carries no rounding error from block to block and has no window to fill: a chain whose
 * hashrate jumps a thousandfold is back at its spacing after ten half-lives' worth of early blocks.
 *
 * Fixed point as the reference code, so that the published test vectors hold bit for bit: the exponent
 * in 1/65536ths, 2^fraction by the specification's cubic (error < 0.013 %), the whole part as a shift.
 */

export interface AsertAnchor {
  /** Height of the anchor block. */
  height: number;
  /** Timestamp (Unix seconds) of the anchor block's parent. */
  parentTime: number;
  /** The anchor block's target. */
  target: bigint;
}

export interface AsertParams {
  /** The block interval the chain aims at, seconds. */
  spacingSeconds: number;
  /** Time ahead of (or behind) schedule that halves (or doubles) the target, seconds. */
  halfLifeSeconds: number;
  /** The easiest target the chain allows. */
  powLimit: bigint;
}

/** The target of the block after `parent` (its height and Unix time, seconds). */
export function asertTarget(
  anchor: AsertAnchor,
  params: AsertParams,
  parent: { height: number; time: number },
): bigint {
  if (!(params.halfLifeSeconds > 0) || !(params.spacingSeconds > 0)) {
    throw new RangeError('ASERT needs a positive spacing and half-life');
  }
  if (parent.height < anchor.height) throw new RangeError('the parent is below the anchor');
  const timeDelta = BigInt(parent.time - anchor.parentTime);
  const heightDelta = BigInt(parent.height - anchor.height);
  // BigInt division truncates toward zero as the reference's int64 division does; `>>` floors.
  const exponent =
    ((timeDelta - BigInt(params.spacingSeconds) * (heightDelta + 1n)) * 65536n) / BigInt(params.halfLifeSeconds);
  const shifts = exponent >> 16n;
  const frac = exponent - (shifts << 16n);
  const factor =
    65536n + ((195_766_423_245_049n * frac + 971_821_376n * frac ** 2n + 5127n * frac ** 3n + (1n << 47n)) >> 48n);
  const scaled = anchor.target * factor;
  const total = shifts - 16n;
  const next = total < 0n ? scaled >> -total : scaled << total;
  if (next === 0n) return 1n;
  return next > params.powLimit ? params.powLimit : next;
}

/**
 * ASERT for a demo chain (or each chain of a braid, by key): anchored at the first parent it is asked
 * about, as if that parent had come on schedule, so the chain starts at `params.powLimit` — the target
 * sized to the demo fleet — and never gets easier than that.
 */
export class AsertSchedule {
  private readonly anchors = new Map<string | number, AsertAnchor>();

  constructor(readonly params: AsertParams) {}

  /**
   * The target of the block after `parent` (height, Unix seconds) on chain `key`. With the block's own
   * time, a block more than one interval after its parent counts the parent as one interval before it:
   * the target eases while the chain waits, for demo nodes that have no other miners to move the chain
   * after a big miner left. On time, the same as plain ASERT.
   */
  next(parent: { height: number; time: number }, key: string | number = 0, blockTime?: number): bigint {
    const { spacingSeconds, powLimit } = this.params;
    let anchor = this.anchors.get(key);
    if (anchor === undefined || parent.height < anchor.height) {
      anchor = { height: parent.height, parentTime: parent.time - spacingSeconds, target: powLimit };
      this.anchors.set(key, anchor);
    }
    const time = blockTime === undefined ? parent.time : Math.max(parent.time, blockTime - spacingSeconds);
    return asertTarget(anchor, this.params, { height: parent.height, time });
  }
}
