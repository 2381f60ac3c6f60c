/**
 * The decompressors of zip members, behind one push-style interface:
 * deflate by the runtime's `DecompressionStream`, Deflate64 by
 * `inflate64.ts`, Zstandard by fzstd. Each keeps its state between pieces,
 * so a member read in windows is decoded once.
 *
 * @module
 */

import { Decompress } from "fzstd";
import { Inflate64 } from "./inflate64.ts";

/** A decompressor fed its member's data piece by piece. */
export interface Decoder {
  /** Most input bytes pushed at once: what one push inflates to stays bounded. */
  readonly feed: number;
  /** Decodes `piece` (`final`: the data's last), yielding the output as it comes. */
  push(piece: Uint8Array, final: boolean): AsyncGenerator<Uint8Array>;
  /** Lets go of what the decoder holds. */
  close(): Promise<void>;
}

/** The compression methods read, by number. */
export const DECODED_METHODS: ReadonlyMap<number, string> = new Map([
  [8, "deflate"],
  [9, "Deflate64"],
  [93, "Zstandard"],
]);

/** Most bytes a Zstandard frame's window may take, as the `zstd` tool allows by default. */
const ZSTD_WINDOW_LIMIT = 1 << 27;

/** The decoder of `method`, one of {@linkcode DECODED_METHODS}. */
export function openDecoder(method: number): Decoder {
  if (method === 8) return deflate();
  if (method === 9) return deflate64();
  return zstandard();
}

function deflate(): Decoder {
  const { readable, writable } = new DecompressionStream("deflate-raw");
  const writer = writable.getWriter();
  const reader = readable.getReader();
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  return {
    feed: 16 * 1024,
    async *push(piece, final) {
      for (const step of final ? [piece, undefined] : [piece]) {
        // Writing waits for a pending read, whose result the output fulfils first.
        const written = step === undefined
          ? writer.close()
          : writer.write(step as Uint8Array<ArrayBuffer>);
        const taken = written.then(() => undefined);
        taken.catch(() => {});
        for (;;) {
          pending ??= reader.read();
          const next = await Promise.race([pending, taken]);
          if (next === undefined) break;
          pending = undefined;
          if (next.done) return;
          yield next.value;
        }
      }
    },
    async close() {
      pending?.catch(() => {});
      await reader.cancel().catch(() => {});
      await writer.abort().catch(() => {});
    },
  };
}

function deflate64(): Decoder {
  const inflater = new Inflate64();
  return {
    feed: 16 * 1024,
    async *push(piece, final) {
      yield* inflater.push(piece, final);
    },
    close: () => Promise.resolve(),
  };
}

function zstandard(): Decoder {
  let output: Uint8Array[] = [];
  const decompress = new Decompress((data) => {
    if (data.length > 0) output.push(data);
  });
  let first = true;
  return {
    // One byte of a frame can repeat a byte 128 KiB times.
    feed: 1024,
    async *push(piece, final) {
      if (first) checkZstdWindow(piece);
      first = false;
      decompress.push(piece, final);
      const taken = output;
      output = [];
      yield* taken;
    },
    close: () => Promise.resolve(),
  };
}

/** Refuses a first frame whose window is past what `zstd` decodes by default. */
function checkZstdWindow(bytes: Uint8Array): void {
  if (bytes.length < 6) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0xfd2fb528) {
    throw new Error("no Zstandard frame at its start");
  }
  const descriptor = bytes[4];
  let window: number;
  if (descriptor & 0x20) {
    // A single segment: the window is the frame's content size.
    const sizeBytes = [1, 2, 4, 8][descriptor >> 6];
    const at = 5 + [0, 1, 2, 4][descriptor & 3];
    if (bytes.length < at + sizeBytes) return;
    window = 0;
    for (let i = sizeBytes - 1; i >= 0; i--) {
      window = window * 256 + bytes[at + i];
    }
    if (sizeBytes === 2) window += 256;
  } else {
    const log = 10 + (bytes[5] >> 3);
    window = 2 ** log + 2 ** (log - 3) * (bytes[5] & 7);
  }
  if (window > ZSTD_WINDOW_LIMIT) {
    throw new Error(
      `its frame asks a window of ${window} bytes, past the ${ZSTD_WINDOW_LIMIT} that zstd decodes by default`,
    );
  }
}
