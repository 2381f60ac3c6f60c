/**
 * `get`'s progress bar on stderr: files done of total, bytes, rate and ETA,
 * redrawn at most ten times a second. It is only shown when stderr is a
 * terminal and `--json` is off; otherwise {@linkcode Progress} is silent.
 *
 * @module
 */

import { formatDuration, formatSize } from "./format.ts";
import type { Output } from "./io.ts";

const REDRAW_MS = 100;
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
  /** Seconds since the start. */
  seconds: number;
}

/** The progress line for a state, cut to `columns` characters. */
export function progressLine(state: ProgressState, columns = 100): string {
  const { files, totalFiles, bytes, totalBytes, seconds } = state;
  const fraction = totalBytes > 0
    ? bytes / totalBytes
    : totalFiles > 0
    ? files / totalFiles
    : 1;
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * BAR_WIDTH);
  const rate = seconds > 0 ? bytes / seconds : 0;
  const left = totalBytes - bytes;
  const eta = rate > 0 && left > 0 ? formatDuration(left / rate) : "-:--";
  const line = [
    `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`,
    `${files}/${totalFiles} files `,
    `${formatSize(bytes)}/${formatSize(totalBytes)} `,
    `${formatSize(Math.round(rate))}/s `,
    `ETA ${eta}`,
  ].join(" ");
  return line.length > columns ? line.slice(0, Math.max(0, columns)) : line;
}

/**
 * Counts a run and redraws the line. Created with `out` undefined, it
 * counts without drawing.
 */
export class Progress {
  readonly #out?: Output;
  readonly #state: ProgressState;
  readonly #start = performance.now();
  #drawn = -Infinity;

  /**
   * @param out where to draw; `undefined` draws nothing
   * @param totalFiles files in the run
   * @param totalBytes bytes expected
   */
  constructor(out: Output | undefined, totalFiles: number, totalBytes: number) {
    this.#out = out;
    this.#state = { files: 0, totalFiles, bytes: 0, totalBytes, seconds: 0 };
  }

  /**
   * Bytes received.
   * @param bytes how many
   */
  add(bytes: number): void {
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
    this.#out?.stderr("");
  }

  #draw(): void {
    if (this.#out === undefined) return;
    const now = performance.now();
    if (now - this.#drawn < REDRAW_MS) return;
    this.#drawn = now;
    this.#state.seconds = (now - this.#start) / 1000;
    this.#out.progress(progressLine(this.#state, terminalColumns() - 1));
  }
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}
