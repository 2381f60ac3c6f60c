/**
 * A benchmark's helper server in a child process: it prints one JSON line
 * when ready, then answers each command line on stdin with one JSON line.
 * Running the emulator there keeps its work off the measured thread.
 *
 * @module
 */

/**
 * A running child server.
 *
 * @example
 * ```ts ignore
 * await using server = await spawnChildServer<{ host: string }>(url, ["--size=1"], "serve_big.ts");
 * const memory = await server.ask<{ rss: number }>("memory");
 * ```
 */
export interface ChildServer<Info> extends AsyncDisposable {
  /** What it printed when ready. */
  info: Info;
  /** Sends one command line; resolves to its JSON answer. Commands go one at a time. */
  ask<T>(command: string): Promise<T>;
  /** Closes its stdin and waits for it to exit (SIGTERM after 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `script` with `deno run` (`deno` on PATH; the parent needs
 * `--allow-run=deno`) and waits for its ready line.
 *
 * @example
 * ```ts ignore
 * const server = await spawnChildServer(new URL(import.meta.url), ["--rows=10"], "zarr_serve.ts", ["--allow-net=127.0.0.1"]);
 * await server.stop();
 * ```
 */
export function spawnChildServer<Info>(
  script: URL,
  flags: string[],
  who: string,
  permissions: string[],
): Promise<ChildServer<Info>> {
  return spawnLineServer("deno", [
    "run",
    ...permissions,
    script.pathname,
    ...flags,
  ], who);
}

/**
 * Starts any program that speaks the same lines (a Python script, say) and
 * waits for its ready line.
 *
 * @example
 * ```ts ignore
 * const peers = await spawnLineServer("/usr/bin/python3", ["bench/peers_read.py"], "peers_read.py");
 * ```
 */
export async function spawnLineServer<Info>(
  command: string,
  args: string[],
  who: string,
): Promise<ChildServer<Info>> {
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = lineReader(child.stdout, who);
  let info: Info;
  try {
    info = JSON.parse(await lines.next());
  } catch (error) {
    await child.status;
    throw error;
  }
  let queue: Promise<unknown> = Promise.resolve();
  const ask = <T>(command: string): Promise<T> => {
    const answer = queue.then(async () => {
      await writer.write(new TextEncoder().encode(`${command}\n`));
      return JSON.parse(await lines.next()) as T;
    });
    queue = answer.catch(() => {});
    return answer;
  };
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await queue;
      await writer.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
      }, 10_000);
      await child.status;
      clearTimeout(timer);
      await lines.cancel().catch(() => {});
    })();
    return stopped;
  };
  return { info, ask, stop, [Symbol.asyncDispose]: stop };
}

/** The child's stdout by lines; `next()` throws once the child has exited. */
function lineReader(
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

/**
 * The child's side: the lines of its stdin, one command each, until the
 * parent closes it.
 *
 * @example
 * ```ts ignore
 * console.log("{}"); // ready
 * for await (const line of commandLines()) console.log(JSON.stringify({ echo: line }));
 * ```
 */
export async function* commandLines(): AsyncGenerator<string> {
  const input = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  let pending = "";
  for await (const text of input) {
    pending += text;
    let cut;
    while ((cut = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, cut).trim();
      pending = pending.slice(cut + 1);
      yield line;
    }
  }
}
