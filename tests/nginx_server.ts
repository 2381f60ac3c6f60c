/**
 * Debian's `nginx` serving a folder on a free loopback port: a real static
 * file server (byte ranges, keep-alive, sendfile) to stand in for the object
 * store behind the emulator's `storeOrigin` option, for the tests and
 * benchmarks. Its CPU cost per request is far below the emulator's own store,
 * so a benchmark's reader keeps the cores it shares with the server, as it
 * would against a remote store. Without `nginx` on the PATH,
 * {@linkcode hasNginx} warns loudly and resolves to false, so that callers
 * skip.
 */

import { freePort, runnable, stopOnce } from "./local_servers.ts";

/** A running `nginx`. */
export interface NginxServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /**
   * The access log so far, one line per request: method and path, then the
   * `Range` and token headers (`-` when absent). Empty unless started with
   * `accessLog`.
   */
  accessLog(): Promise<string[]>;
  /** Stops it (SIGTERM), waits for it to exit and removes its own files. */
  stop(): Promise<void>;
}

const WARNING = [
  "",
  "!!! nginx is not installed: the tests against a real static store are SKIPPED.",
  "!!! Install it with `apt-get install nginx-light` (.ci/run does).",
  "",
].join("\n");

/** The echo module of Debian's `libnginx-mod-http-echo`, which `latencyMs` needs. */
const ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so";

/** Whether `nginx` can be run here. */
export function hasNginx(): Promise<boolean> {
  return runnable("nginx", ["-v"], WARNING);
}

/** Whether `nginx` can add latency here (its echo module is installed). */
export async function hasNginxLatency(): Promise<boolean> {
  try {
    await Deno.stat(ECHO_MODULE);
    return await hasNginx();
  } catch {
    console.warn(
      "!!! nginx's echo module is not installed: latency through nginx is SKIPPED (apt-get install libnginx-mod-http-echo).",
    );
    return false;
  }
}

/**
 * Starts `nginx` serving `root` and resolves once it accepts connections.
 *
 * @param root the folder served at `/`
 * @param options `accessLog`: log every request with its `Range` and
 * `tokenHeader` (default `X-Repo-key`) headers; `latencyMs`: wait that long
 * before answering each request, as the emulator's `latencyMs` does (needs
 * the echo module, {@linkcode hasNginxLatency}); `port`: listen there, not
 * on a free port
 */
export async function startNginx(
  root: string,
  options: {
    accessLog?: boolean;
    tokenHeader?: string;
    latencyMs?: number;
    port?: number;
  } = {},
): Promise<NginxServer> {
  const port = options.port ?? freePort();
  const own = await Deno.makeTempDir({ prefix: "repo_fs_nginx_" });
  const logFile = `${own}/access.log`;
  const tokenVariable = `$http_${
    (options.tokenHeader ?? "X-Repo-key").toLowerCase().replaceAll("-", "_")
  }`;
  const accessLog = options.accessLog
    ? `log_format headers '$request_method $uri $http_range ${tokenVariable}';
       access_log ${logFile} headers;`
    : "access_log off;";
  const latencyMs = options.latencyMs ?? 0;
  const locations = latencyMs > 0
    ? `location / { echo_sleep ${latencyMs / 1000}; echo_exec @object; }
       location @object {}`
    : "";
  await Deno.writeTextFile(
    `${own}/nginx.conf`,
    `${latencyMs > 0 ? `load_module ${ECHO_MODULE};` : ""}
     daemon off;
     master_process off;
     worker_processes 1;
     worker_rlimit_nofile 65536;
     pid ${own}/nginx.pid;
     error_log stderr warn;
     events { worker_connections 16384; }
     http {
       ${accessLog}
       sendfile on;
       keepalive_requests 10000000;
       keepalive_timeout 300s;
       types {}
       default_type application/octet-stream;
       client_body_temp_path ${own}/body;
       proxy_temp_path ${own}/proxy;
       fastcgi_temp_path ${own}/fastcgi;
       uwsgi_temp_path ${own}/uwsgi;
       scgi_temp_path ${own}/scgi;
       server {
         listen 127.0.0.1:${port};
         root ${root};
         ${locations}
       }
     }
    `,
  );
  const child = new Deno.Command("nginx", {
    args: ["-e", "stderr", "-p", own, "-c", `${own}/nginx.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const errors = new Response(child.stderr).text();
  const stop = stopOnce(child, async () => {
    await errors;
    await Deno.remove(own, { recursive: true });
  });
  try {
    await waitForListener(port, `${own}/nginx.pid`, child.status, errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    accessLog: async () =>
      options.accessLog
        ? (await Deno.readTextFile(logFile)).split("\n").filter(Boolean)
        : [],
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/**
 * Resolves once nginx listens on `port`: it writes `pidFile` only after it
 * has bound its sockets, so another server on that port is not taken for
 * it. Fails when nginx exits first (with what it printed) or after 10 s.
 */
async function waitForListener(
  port: number,
  pidFile: string,
  exited: Promise<Deno.CommandStatus>,
  errors: Promise<string>,
): Promise<void> {
  let gone = false;
  exited.then(() => gone = true);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (gone) throw new Error(`nginx exited at start: ${await errors}`);
    try {
      await Deno.stat(pidFile);
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`nginx did not listen on port ${port} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
