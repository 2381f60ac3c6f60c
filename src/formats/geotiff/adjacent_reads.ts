/**
 * Range reads asked at about the same time, joined where they touch or
 * nearly: the tiles of a row of a COG, or the strips of a striped TIFF, lie
 * one after another in the file, and geotiff.js asks for each on its own.
 * The only bytes fetched outside the asked ranges are the gaps of at most
 * {@linkcode MOST_GAP} bytes between them.
 *
 * @module
 */

/** How one range is read. */
export type ReadRange = (
  start: number,
  end: number,
  signal?: AbortSignal,
) => Promise<Uint8Array>;

/** The most bytes one joined read takes, so that a window's reads still run side by side. */
export const MOST_JOINED = 8 * 2 ** 20;

/** The widest gap read to join two ranges: GDAL's COG puts 8 bytes (size and check) around each tile. */
export const MOST_GAP = 64;

interface Asked {
  start: number;
  end: number;
  signal?: AbortSignal;
  resolve(bytes: Uint8Array): void;
  reject(error: unknown): void;
}

/** Joins the reads asked before the next turn of the event loop. */
export class AdjacentReads {
  #asked: Asked[] = [];

  /** @param readRange how a range (of one or of joined reads) is read */
  constructor(readonly readRange: ReadRange) {}

  /** Bytes `start`..`end`, read alone or with the reads next to it. */
  read(start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      if (this.#asked.length === 0) setTimeout(() => this.#flush(), 0);
      this.#asked.push({ start, end, signal, resolve, reject });
    });
  }

  #flush(): void {
    const asked = this.#asked.sort((a, b) => a.start - b.start);
    this.#asked = [];
    let run: Asked[] = [];
    let end = 0;
    for (const one of asked) {
      const joins = run.length > 0 && one.signal === run[0].signal &&
        one.start <= end + MOST_GAP &&
        Math.max(one.end, end) - run[0].start <= MOST_JOINED;
      if (!joins && run.length > 0) this.#readRun(run);
      run = joins ? [...run, one] : [one];
      end = joins ? Math.max(end, one.end) : one.end;
    }
    if (run.length > 0) this.#readRun(run);
  }

  async #readRun(run: Asked[]): Promise<void> {
    const start = run[0].start;
    const end = Math.max(...run.map((one) => one.end));
    try {
      const bytes = await this.readRange(start, end, run[0].signal);
      for (const one of run) {
        one.resolve(bytes.subarray(one.start - start, one.end - start));
      }
    } catch (error) {
      for (const one of run) one.reject(error);
    }
  }
}
