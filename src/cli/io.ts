/**
 * Where the command line writes: text and bytes to stdout, messages and log
 * lines to stderr. Every stderr line passes through a filter that blanks out
 * secrets (the API token), whatever produced the line.
 *
 * @module
 */

import type { Logger } from "../base/types.ts";
import { writeAll } from "../base/write_all.ts";
import { hideSecret, redact } from "../base/secrets.ts";

const encoder = new TextEncoder();
/** What `JSON.stringify` leaves as it is but a terminal must not see raw. */
const RAW_AFTER_JSON = /[\u007f-\u009f\p{Bidi_Control}]/gu;
const UNSHOWABLE = /[\p{Cc}\p{Bidi_Control}]/u;
/** What a terminal would act on in a message: all but line breaks and tabs. */
const TERMINAL_CONTROL = /(?![\n\t])[\p{Cc}\p{Bidi_Control}]/gu;

/**
 * The process's output streams. Secrets are blanked out of text on both,
 * and control characters in what goes to stderr (a server's message, say)
 * are shown as `\u` escapes, never acted on by the terminal.
 */
export class Output {
  #progressShown = false;

  /**
   * Blanks `secret` out of all text written from now on, as
   * {@linkcode hideSecret} does out of the library's messages.
   * @param secret a value that must never be shown
   */
  hide(secret: string): void {
    hideSecret(secret);
  }

  /**
   * Writes `text` and a newline to stdout.
   * @param text the text to print
   */
  async print(text: string): Promise<void> {
    await this.bytes(encoder.encode(`${this.redact(text)}\n`));
  }

  /**
   * Writes `value` as indented JSON to stdout.
   * @param value anything JSON can hold
   */
  async json(value: unknown): Promise<void> {
    await this.print(JSON.stringify(value, null, 2));
  }

  /**
   * Writes raw bytes to stdout.
   * @param bytes the bytes
   */
  async bytes(bytes: Uint8Array): Promise<void> {
    await writeAll(Deno.stdout, bytes);
  }

  /**
   * Writes `repo-fs: <line>` to stderr, secrets blanked out.
   * @param line the message; newlines in it become spaces
   */
  error(line: string): void {
    this.stderr(`repo-fs: ${line.replace(/\s*\n\s*/g, " ")}\n`);
  }

  /**
   * Writes text to stderr as it is, secrets blanked out, first clearing
   * the progress line if one is shown.
   * @param text the text, with its own newlines
   */
  stderr(text: string): void {
    if (this.#progressShown) {
      this.#progressShown = false;
      this.#writeStderr("\r\x1b[2K");
    }
    this.#writeStderr(this.#shown(text));
  }

  /**
   * Replaces the progress line on stderr (a terminal) with `line`.
   * @param line the new progress line, without newline
   */
  progress(line: string): void {
    this.#writeStderr(`\r\x1b[2K${this.#shown(line)}`);
    this.#progressShown = true;
  }

  /**
   * `text` with every hidden secret replaced by `***`.
   * @param text any text
   */
  redact(text: string): string {
    return redact(text);
  }

  /**
   * A logger writing `level: message` lines to stderr, for `--verbose`.
   */
  logger(): Logger {
    const line = (level: string) => (msg: string) =>
      this.stderr(`${level}: ${msg}\n`);
    return { debug: line("debug"), info: line("info"), warn: line("warn") };
  }

  /** `text` for stderr: secrets blanked, terminal controls escaped. */
  #shown(text: string): string {
    return this.redact(text).replace(TERMINAL_CONTROL, unicodeEscape);
  }

  #writeStderr(text: string): void {
    const bytes = encoder.encode(text);
    let done = 0;
    while (done < bytes.byteLength) {
      done += Deno.stderr.writeSync(bytes.subarray(done));
    }
  }
}

/**
 * A dataset path as it may be shown on a terminal: as it is when it is
 * plain text, JSON-quoted (and bidirectional overrides escaped) when it holds
 * control or text-direction characters: a hostile listing could otherwise
 * move the cursor, clear the screen or show a name backwards.
 */
export function displayPath(path: string): string {
  return UNSHOWABLE.test(path) ? quotePath(path) : path;
}

/**
 * A dataset path in double quotes with JSON escapes, control and
 * text-direction characters included, for messages.
 */
export function quotePath(path: string): string {
  return JSON.stringify(path).replace(RAW_AFTER_JSON, unicodeEscape);
}

/** A character as a JSON `\u` escape. */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
