/**
 * Writing every byte to a sink whose `write` may take only some of them.
 *
 * @module
 */

/**
 * Something bytes can be written to, as `Deno.stdout` and `Deno.FsFile` are.
 */
export interface ByteSink {
  /** Writes some of `bytes`; resolves to how many. */
  write(bytes: Uint8Array): Promise<number>;
}

/** Writes every byte, however many calls the sink needs. */
export async function writeAll(
  sink: ByteSink,
  bytes: Uint8Array,
): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    done += await sink.write(bytes.subarray(done));
  }
}
