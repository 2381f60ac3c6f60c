/** What the servers the tests and benchmarks start on loopback share. */

/** A port nothing listens on right now on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Whether `command args` runs here and succeeds; when it cannot be run at
 * all, `warning` is printed first, so that skipped tests are seen.
 */
export async function runnable(
  command: string,
  args: string[],
  warning: string,
): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(command, {
      args,
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    console.warn(warning);
    return false;
  }
}

/**
 * A stop for `child` that acts once, however often it is called: SIGTERM,
 * its exit, then `after()`.
 */
export function stopOnce(
  child: Deno.ChildProcess,
  after: () => Promise<unknown> = () => Promise.resolve(),
): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () =>
    stopped ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await child.status;
      await after();
    })();
}
