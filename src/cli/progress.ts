/**
 * `get`'s progress on stderr: files done of total and bytes of total, each
 * with its own fraction, then a bar of the bytes, the rate and the ETA,
 * these two only once a second of data has been measured. On a terminal
 * the line is redrawn in place at most ten times a second and cut to its
 * width by dropping the least useful fields first (bar, rate, ETA); on a
 * pipe or a file a plain line is written every five seconds instead.
 *
 * @module
 */

import { formatDuration, formatSize } from "./format.ts";
import type { Output } from "./io.ts";

const REDRAW_MS = 100;
const PLAIN_EVERY_MS = 5000;
/** Data measured before a rate (and an ETA from it) means anything. */
const MEASURED_MS = 1000;
const BAR_WIDTH = 20;

/** What the progress line shows. */
export interface ProgressState {
  /** Files finished (downloaded, skipped or failed). */
  files: number;
  /** Files in the run. */
  totalFiles: number;
  /** Bytes received so far. */
  bytes: number;
  /** Bytes expected (the listed sizes); 0 when unknown. */
  totalBytes: number;
  /** Seconds since the first bytes were counted (0 before). */
  seconds: number;
  /** Bytes received in those seconds (default `bytes`): the first count came before them. */
  measuredBytes?: number;
}

/**
 * The progress line for a state, at most `columns` characters: the fields
 * that do not fit are left out, least useful first (bar, rate, ETA), and
 * what is left is cut only when even files and bytes do not fit.
 */
export function progressLine(state: ProgressState, columns = 100): string {
  const { files, totalFiles, bytes, totalBytes, seconds } = state;
  const byteShare = totalBytes > 0 ? bytes / totalBytes : undefined;
  const rate = seconds * 1000 >= MEASURED_MS
    ? (state.measuredBytes ?? bytes) / seconds
    : undefined;
  const left = totalBytes - bytes;
  const fields: { text: string; keep: number }[] = [
    {
      text: `${files}/${totalFiles} files${percent(files, totalFiles)}`,
      keep: 5,
    },
    {
      text: totalBytes > 0
        ? `${formatSize(bytes)}/${formatSize(totalBytes)}${
          percent(bytes, totalBytes)
        }`
        : formatSize(bytes),
      keep: 4,
    },
  ];
  if (byteShare !== undefined) {
    const filled = Math.round(Math.min(1, byteShare) * BAR_WIDTH);
    fields.push({
      text: `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`,
      keep: 1,
    });
  }
  if (rate !== undefined) {
    fields.push({ text: `${formatSize(Math.round(rate))}/s`, keep: 2 });
    if (rate > 0 && left > 0) {
      fields.push({ text: `ETA ${formatDuration(left / rate)}`, keep: 3 });
    }
  }
  const shown = (kept: typeof fields) => kept.map((f) => f.text).join("  ");
  let kept = fields;
  while (shown(kept).length > columns && kept.length > 1) {
    const least = Math.min(...kept.map((f) => f.keep));
    kept = kept.filter((f) => f.keep !== least);
  }
  return shown(kept).slice(0, Math.max(0, columns));
}

/** ` (30%)`, or nothing when the total is 0. */
function percent(part: number, total: number): string {
  return total > 0 ? ` (${Math.floor(Math.min(1, part / total) * 100)}%)` : "";
}

/**
 * Counts a run and shows it. Created with `out` undefined, it counts
 * without showing; with `terminal` false it writes plain lines.
 */
export class Progress {
  readonly #out?: Output;
  readonly #terminal: boolean;
  readonly #state: ProgressState;
  #firstByte?: number;
  #bytesBefore = 0;
  #drawn = -Infinity;

  /**
   * @param out where to show it; `undefined` shows nothing
   * @param totalFiles files in the run
   * @param totalBytes bytes expected
   * @param terminal whether `out`'s stderr is a terminal (redrawn in place)
   */
  constructor(
    out: Output | undefined,
    totalFiles: number,
    totalBytes: number,
    terminal = true,
  ) {
    this.#out = out;
    this.#terminal = terminal;
    this.#state = { files: 0, totalFiles, bytes: 0, totalBytes, seconds: 0 };
  }

  /**
   * Bytes received.
   * @param bytes how many
   */
  add(bytes: number): void {
    if (this.#firstByte === undefined) {
      this.#firstByte = performance.now();
      this.#bytesBefore = this.#state.bytes + bytes;
    }
    this.#state.bytes += bytes;
    this.#draw();
  }

  /**
   * A file finished; `skippedBytes` leaves the total when it was not fetched.
   * @param skippedBytes listed bytes of a file that was not downloaded
   */
  fileDone(skippedBytes = 0): void {
    this.#state.files++;
    this.#state.totalBytes -= skippedBytes;
    this.#draw();
  }

  /** Clears the line, so that what follows starts on a clean one. */
  finish(): void {
    if (this.#terminal) this.#out?.stderr("");
  }

  #draw(): void {
    if (this.#out === undefined) return;
    const now = performance.now();
    if (!this.#terminal) {
      this.#drawn = Math.max(this.#drawn, this.#firstByte ?? now);
    }
    if (now - this.#drawn < (this.#terminal ? REDRAW_MS : PLAIN_EVERY_MS)) {
      return;
    }
    this.#drawn = now;
    this.#state.seconds = this.#firstByte === undefined
      ? 0
      : (now - this.#firstByte) / 1000;
    this.#state.measuredBytes = this.#state.bytes - this.#bytesBefore;
    if (this.#terminal) {
      this.#out.progress(progressLine(this.#state, terminalColumns() - 1));
    } else {
      this.#out.stderr(`progress: ${progressLine(this.#state, Infinity)}\n`);
    }
  }
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}
