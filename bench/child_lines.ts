/**
 * Reading a benchmark's child process line by line.
 *
 * @module
 */

/**
 * Reads the child's `stdout` by lines: `next()` resolves to the next line
 * (without the newline) and throws once the child has exited; `cancel()`
 * stops reading.
 *
 * @example
 * ```ts ignore
 * const lines = lineReader(child.stdout, "serve_big.ts");
 * const info = JSON.parse(await lines.next());
 * await lines.cancel();
 * ```
 */
export function lineReader(
  stdout: ReadableStream<Uint8Array>,
  who: string,
): { next(): Promise<string>; cancel(): Promise<void> } {
  const lines = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const next = async () => {
    while (!buffered.includes("\n")) {
      const { done, value } = await lines.read();
      if (done) throw new Error(`${who} exited`);
      buffered += value;
    }
    const cut = buffered.indexOf("\n");
    const line = buffered.slice(0, cut);
    buffered = buffered.slice(cut + 1);
    return line;
  };
  return { next, cancel: () => lines.cancel() };
}
