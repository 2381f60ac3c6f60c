/**
 * How many chunk reads one `getArray` keeps in flight: a window that follows
 * the link. It measures the link (the shortest time a read takes when few
 * are in flight, and the most reads completed per ms), keeps three times
 * what the link holds, halves when a request had to be retried (a 429, a
 * 5xx, a dropped connection), and stays between a floor and a ceiling that
 * also bounds the bytes in flight.
 *
 * @module
 */

/** Where a {@linkcode ReadWindow} starts and the bounds it keeps to. */
export interface ReadWindowOptions {
  /**
   * Reads in flight at first, and the fewest the link's measure may ask
   * for; default 32, lowered to `ceiling`.
   */
  initial?: number;
  /** Fewest reads in flight (after retries, and to measure the link); default 4. */
  floor?: number;
  /** Most reads in flight; default 256. */
  ceiling?: number;
  /** The clock, in ms; default `performance.now`. */
  now?: () => number;
  /** Told each new size. */
  onResize?: (size: number) => void;
}

const DEFAULTS = { initial: 32, floor: 4, ceiling: 256 };

/**
 * The window holds this many times what the link holds (best rate times
 * shortest read): the reads that complete at once wait for the thread
 * to take them, so a CPU-bound reader needs more than one link's worth.
 */
const HEADROOM = 3;

/** The link's rate is the best of this many last rounds. */
const RATE_ROUNDS = 10;

/** The shortest read is measured again after this many ms. */
const MEASURE_EVERY_MS = 10_000;

/**
 * Decoded bytes one `getArray`'s chunk reads may hold at once; with big
 * chunks this lowers the ceiling (never below the floor).
 */
const BYTES_IN_FLIGHT = 64 * 2 ** 20;

/** When a read started, as {@linkcode ReadWindow.started} gave it. */
export interface ReadStart {
  /** On the window's clock, in ms. */
  readonly at: number;
  /** The window was measuring the link: few reads were in flight. */
  readonly measuring: boolean;
}

/**
 * The chunk read window: the number of reads to keep in flight. Reads are
 * timed: `started()` gives a read its start, `completed(start)` says it
 * succeeded. The window works in rounds; a round ends when as many reads
 * have completed since it began as the window holds (about one round trip
 * of the link), and measures completed reads per ms over the round.
 *
 * - After the first round, and every 10 s, the window measures the link's
 *   shortest read: it drops to the floor until that many reads started
 *   since have completed, and keeps the shortest of their times. With many
 *   reads in flight, every read also waits for the others, so only a read
 *   sent almost alone tells how far the link is.
 * - After a measure, and at the end of every other round, the window is
 *   set to three times what the link holds: the best rate of the last 10
 *   rounds times the shortest read, never below the initial size. On a
 *   distant link the rate grows with the window, so it triples each round
 *   until the link or the CPU is full; on a near one it stays at the
 *   initial size, as more reads in flight would only cost memory and
 *   collection.
 * - A retry (`congested()`) halves the window, down to the floor, and caps
 *   it there; further retries in that round are ignored, as they come from
 *   reads sent at the larger size. Each round without a retry raises the cap
 *   by a quarter.
 */
export class ReadWindow {
  /** Fewest reads in flight. */
  readonly floor: number;
  /** Most reads in flight. */
  readonly ceiling: number;
  readonly #initial: number;
  readonly #now: () => number;
  readonly #onResize: (size: number) => void;
  #size: number;
  /** The most reads in flight since the last retry. */
  #cap: number;
  /** Completed reads per ms of the last rounds. */
  readonly #rates: number[] = [];
  #shortestReadMs = Infinity;
  #measuring = false;
  #measured = 0;
  #sizeBeforeMeasure = 0;
  #lastMeasured: number | undefined;
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
    this.#initial = clamp(initial, floor, ceiling);
    this.#size = this.#initial;
    this.#cap = ceiling;
    this.#now = options.now ?? (() => performance.now());
    this.#onResize = options.onResize ?? (() => {});
    this.#roundStart = this.#now();
  }

  /** Reads to keep in flight now. */
  get size(): number {
    return this.#size;
  }

  /**
   * A read starts.
   *
   * @returns its start, to give to {@linkcode ReadWindow.completed}
   */
  started(): ReadStart {
    return { at: this.#now(), measuring: this.#measuring };
  }

  /**
   * A read completed; may end the round and resize.
   *
   * @param start what {@linkcode ReadWindow.started} gave the read
   */
  completed(start: ReadStart): void {
    const now = this.#now();
    if (this.#measuring) {
      if (!start.measuring) return;
      this.#shortestReadMs = Math.min(this.#shortestReadMs, now - start.at);
      if (++this.#measured < this.floor) return;
      this.#measuring = false;
      this.#lastMeasured = now;
      this.#resize(this.#fromLink());
      this.#newRound(now);
      return;
    }
    if (++this.#roundDone < this.#size) return;
    const rate = this.#roundDone / Math.max(now - this.#roundStart, 1e-3);
    if (!this.#decreasedThisRound) {
      this.#cap = Math.min(
        this.ceiling,
        this.#cap + Math.max(1, this.#cap >> 2),
      );
    }
    this.#newRound(now);
    if (
      this.#lastMeasured === undefined ||
      now - this.#lastMeasured >= MEASURE_EVERY_MS
    ) {
      this.#measuring = true;
      this.#measured = 0;
      this.#shortestReadMs = Infinity;
      this.#sizeBeforeMeasure = this.#size;
      this.#resize(this.floor);
      return;
    }
    this.#rates.push(rate);
    if (this.#rates.length > RATE_ROUNDS) this.#rates.shift();
    this.#resize(this.#fromLink());
  }

  /**
   * A request had to be retried: halve, once per round. While the link is
   * measured, the window stays at the floor and the size before is halved.
   */
  congested(): void {
    if (this.#decreasedThisRound) return;
    const size = this.#measuring ? this.#sizeBeforeMeasure : this.#size;
    this.#cap = Math.max(this.floor, size >> 1);
    if (!this.#measuring) this.#resize(this.#cap);
    this.#newRound(this.#now());
    this.#decreasedThisRound = true;
  }

  /** Three times what the link holds, never below the initial size. */
  #fromLink(): number {
    const linkHolds = Math.max(0, ...this.#rates) * this.#shortestReadMs;
    return Math.max(this.#initial, Math.ceil(HEADROOM * linkHolds));
  }

  #resize(size: number): void {
    const bounded = clamp(Math.min(size, this.#cap), this.floor, this.ceiling);
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
