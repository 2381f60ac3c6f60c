/**
 * How many chunk reads one `getArray` keeps in flight: a window that follows
 * the link. It grows while completed reads per second grow, halves when a
 * request had to be retried (a 429, a 5xx, a dropped connection), and stays
 * between a floor and a ceiling that also bounds the bytes in flight.
 *
 * @module
 */

/**
 * Where a {@linkcode ReadWindow} starts and the bounds it keeps to.
 *
 * @example
 * ```ts
 * import type { ReadWindowOptions } from "./read_window.ts";
 * const fixed: ReadWindowOptions = { initial: 8, floor: 8, ceiling: 8 };
 * ```
 */
export interface ReadWindowOptions {
  /** Reads in flight at first; default 32, lowered to `ceiling`. */
  initial?: number;
  /** Fewest reads in flight; default 4. */
  floor?: number;
  /** Most reads in flight; default 256. */
  ceiling?: number;
  /** The clock, in ms; default `performance.now`. */
  now?: () => number;
  /** Told each new size. */
  onResize?: (size: number) => void;
}

const DEFAULTS = { initial: 32, floor: 4, ceiling: 256 };

/** A round must beat the best rate by this factor for the window to grow. */
const GAIN = 1.1;

/**
 * Decoded bytes one `getArray`'s chunk reads may hold at once; with big
 * chunks this lowers the ceiling (never below the floor).
 */
const BYTES_IN_FLIGHT = 64 * 2 ** 20;

/**
 * The chunk read window: the number of reads to keep in flight. It works in
 * rounds; a round ends when as many reads have completed since it began as
 * the window holds (about one round trip of the link), and measures
 * completed reads per ms over the round.
 *
 * - At the end of a round whose rate beats the best rate so far by 10 %,
 *   the window grows: it doubles up to the threshold (at first the
 *   ceiling), and grows by a quarter above it. Otherwise it holds (the link
 *   or the CPU is busy).
 * - A retry (`congested()`) halves the window, down to the floor, makes that
 *   the threshold and starts a new round; further retries in that round are
 *   ignored, as they come from reads sent at the larger size. The round
 *   after a decrease sets the rate to beat, and the window holds.
 *
 * @example
 * ```ts
 * import { ReadWindow } from "./read_window.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * let ms = 0;
 * const sizes: number[] = [];
 * const window = new ReadWindow({
 *   initial: 4,
 *   now: () => ms,
 *   onResize: (size) => sizes.push(size),
 * });
 * const round = (elapsedMs: number) => {
 *   ms += elapsedMs;
 *   for (let i = window.size; i > 0; i--) window.completed();
 * };
 * round(10); // 0.4 reads per ms: better than nothing, so 4 → 8
 * round(10); // 0.8 reads per ms: 8 → 16
 * round(20); // 0.8 reads per ms: no better, 16 holds
 * window.congested(); // a 429: 16 → 8
 * window.congested(); // same round: ignored
 * deepStrictEqual(sizes, [8, 16, 8]);
 * strictEqual(window.size, 8);
 * ```
 */
export class ReadWindow {
  /** Fewest reads in flight. */
  readonly floor: number;
  /** Most reads in flight. */
  readonly ceiling: number;
  readonly #now: () => number;
  readonly #onResize: (size: number) => void;
  #size: number;
  #threshold: number;
  /** Completed reads per ms to beat; `undefined` right after a decrease. */
  #bestRate: number | undefined = 0;
  #roundStart: number;
  #roundDone = 0;
  #decreasedThisRound = false;

  /** @param options where to start and the bounds; see {@linkcode ReadWindowOptions} */
  constructor(options: ReadWindowOptions = {}) {
    const { initial, floor, ceiling } = { ...DEFAULTS, ...options };
    for (const [name, value] of Object.entries({ initial, floor, ceiling })) {
      if (!Number.isInteger(value) || value < 1) {
        throw new TypeError(`${name} must be an integer >= 1, got ${value}`);
      }
    }
    if (ceiling < floor) {
      throw new TypeError(`ceiling ${ceiling} is below floor ${floor}`);
    }
    this.floor = floor;
    this.ceiling = ceiling;
    this.#size = clamp(initial, floor, ceiling);
    this.#threshold = ceiling;
    this.#now = options.now ?? (() => performance.now());
    this.#onResize = options.onResize ?? (() => {});
    this.#roundStart = this.#now();
  }

  /** Reads to keep in flight now. */
  get size(): number {
    return this.#size;
  }

  /** A read completed; may end the round and resize. */
  completed(): void {
    this.#roundDone++;
    if (this.#roundDone < this.#size) return;
    const now = this.#now();
    const rate = this.#roundDone / Math.max(now - this.#roundStart, 1e-3);
    if (this.#bestRate === undefined) {
      this.#bestRate = rate;
    } else if (rate > this.#bestRate * GAIN) {
      this.#bestRate = rate;
      this.#resize(
        this.#size < this.#threshold
          ? Math.min(this.#size * 2, this.#threshold)
          : this.#size + Math.max(1, this.#size >> 2),
      );
    }
    this.#newRound(now);
  }

  /** A request had to be retried: halve, once per round. */
  congested(): void {
    if (this.#decreasedThisRound) return;
    this.#threshold = Math.max(this.floor, this.#size >> 1);
    this.#bestRate = undefined;
    this.#resize(this.#threshold);
    this.#newRound(this.#now());
    this.#decreasedThisRound = true;
  }

  #resize(size: number): void {
    const bounded = clamp(size, this.floor, this.ceiling);
    if (bounded === this.#size) return;
    this.#size = bounded;
    this.#onResize(bounded);
  }

  #newRound(now: number): void {
    this.#roundStart = now;
    this.#roundDone = 0;
    this.#decreasedThisRound = false;
  }
}

/**
 * A window for reading chunks of `chunkBytes` decoded bytes each: the
 * default bounds, with the ceiling lowered so that the reads in flight hold
 * at most 64 MiB (never below the floor). When a read is cut into parts
 * that are read at the same time (a pool's `getArray`), each part's window
 * gets its share of those bytes, so that the whole read keeps to them. The
 * count of reads is not shared out: `getConcurrency`, which a pool's
 * workers share, bounds that, and a part that is finishing leaves its
 * places to the others.
 *
 * @example
 * ```ts
 * import { chunkReadWindow } from "./read_window.ts";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(chunkReadWindow(64 * 1024).ceiling, 256);
 * strictEqual(chunkReadWindow(4 * 2 ** 20).ceiling, 16);
 * strictEqual(chunkReadWindow(4 * 2 ** 20).size, 16);
 * strictEqual(chunkReadWindow(2 ** 30).ceiling, 4);
 * // One of 8 parts read at once: 8 MiB of its own.
 * strictEqual(chunkReadWindow(64 * 1024, 8).ceiling, 128);
 * strictEqual(chunkReadWindow(2 * 1024, 8).ceiling, 256);
 * strictEqual(chunkReadWindow(4 * 2 ** 20, 8).ceiling, 4);
 * ```
 *
 * @param chunkBytes decoded bytes of one chunk
 * @param partsAtOnce parts of the same read that read at the same time
 */
export function chunkReadWindow(
  chunkBytes: number,
  partsAtOnce = 1,
): ReadWindow {
  const share = BYTES_IN_FLIGHT / Math.max(1, partsAtOnce);
  const fit = Math.floor(share / Math.max(1, chunkBytes));
  return new ReadWindow({
    ceiling: clamp(fit, DEFAULTS.floor, DEFAULTS.ceiling),
  });
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
