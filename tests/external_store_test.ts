// The emulator's `storeOrigin` and `writeStore`: the repository redirects to
// a real static file server (Debian's nginx) holding the store's objects,
// and every read path gets its bytes from there.

import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { startEmulator } from "../emulator.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import {
  hasNginx,
  hasNginxLatency,
  type NginxServer,
  startNginx,
} from "./nginx_server.ts";
import { patterned } from "./support.ts";

const nginx = await hasNginx();
const nginxLatency = await hasNginxLatency();

/** nginx over a fresh folder, and an emulator whose redirects point at it. */
async function storeBehindNginx(
  files: Record<string, Uint8Array>,
  token?: string,
) {
  const root = await Deno.makeTempDir({ prefix: "external_store_" });
  let server: NginxServer | undefined;
  try {
    server = await startNginx(root, { accessLog: true });
    const emu = await startEmulator({
      files,
      token,
      storeOrigin: server.origin,
    });
    equal(await emu.writeStore(root), Object.keys(files).length);
    const done = async () => {
      await emu.close();
      await server!.stop();
      await Deno.remove(root, { recursive: true });
    };
    return { emu, nginx: server, [Symbol.asyncDispose]: done };
  } catch (error) {
    await server?.stop();
    await Deno.remove(root, { recursive: true });
    throw error;
  }
}

Deno.test("storeOrigin must be an http(s) origin", async () => {
  for (const bad of ["file:///tmp", "http://127.0.0.1:8080/bucket", "nope"]) {
    await rejects(
      startEmulator({ storeOrigin: bad }),
      (error: Error) =>
        error instanceof TypeError &&
        error.message.includes("storeOrigin must be an http(s) origin") &&
        error.message.includes(JSON.stringify(bad)),
    );
  }
});

Deno.test({
  name:
    "nginx as the store: whole files and ranges come from it, with no token and one HEAD per file",
  ignore: !nginx,
  async fn() {
    const files = {
      "data/a.bin": patterned(300_000, 1),
      "data/b.bin": patterned(5_000, 2),
    };
    await using run = await storeBehindNginx(files, "s3cret");
    const fs = new RepoFs({
      host: run.emu.host,
      pid: run.emu.pid,
      token: "s3cret",
    });
    deepStrictEqual(await fs.catFile("data/a.bin"), files["data/a.bin"]);
    deepStrictEqual(
      await fs.catFile("data/a.bin", { start: 1000, end: 70_000 }),
      files["data/a.bin"].subarray(1000, 70_000),
    );
    deepStrictEqual(
      await fs.catFile("data/b.bin", { start: -100 }),
      files["data/b.bin"].subarray(-100),
    );
    equal(run.emu.counters.heads, 2);
    equal(run.emu.counters.storeGets, 0, "the emulator's own store is unused");
    const log = await run.nginx.accessLog();
    equal(log.length, 3, log.join("\n"));
    for (const line of log) {
      ok(line.startsWith("GET /repo-emulator/"), line);
      ok(line.endsWith(" -"), `a token reached the store: ${line}`);
    }
    ok(log.some((line) => line.includes("bytes=1000-69999")), log.join("\n"));
  },
});

Deno.test({
  name: "nginx as the store: a pool of 2 reads a Zarr array from it",
  ignore: !nginx,
  async fn() {
    const values = ramp(Float32Array, 64 * 8 * 8);
    const files = await buildZarrStore(
      [{
        path: "t",
        data: values,
        shape: [64, 8, 8],
        chunks: [1, 8, 8],
        compressor: "gzip",
      }],
      { format: 2, prefix: "s.zarr" },
    );
    await using run = await storeBehindNginx(files);
    await using pool = new RepoFsPool(
      new RepoFs({ host: run.emu.host, pid: run.emu.pid }),
      { workers: 2 },
    );
    const { data, shape } = await getArray(pool, "s.zarr", "t");
    deepStrictEqual(shape, [64, 8, 8]);
    deepStrictEqual(data, values);
    equal(run.emu.counters.storeGets, 0);
    const gets = (await run.nginx.accessLog()).map((line) =>
      line.split(" ")[1]
    );
    for (
      const key of Object.keys(files).filter((k) => /\/\d+\.0\.0$/.test(k))
    ) {
      const object = run.emu.fileId(key).toString(16).padStart(12, "0");
      equal(
        gets.filter((path) => path.endsWith(`-${object}`)).length,
        1,
        `GETs of ${key}`,
      );
    }
  },
});

Deno.test({
  name:
    "nginx with latencyMs answers every request that much later, ranges intact",
  ignore: !nginxLatency,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "external_store_" });
    try {
      const bytes = patterned(10_000, 3);
      await Deno.writeFile(`${root}/object`, bytes);
      await using server = await startNginx(root, { latencyMs: 150 });
      for (const range of ["bytes=100-199", undefined]) {
        const started = performance.now();
        const response = await fetch(`${server.origin}/object?X-Amz-Date=1`, {
          headers: range ? { range } : {},
        });
        const body = new Uint8Array(await response.arrayBuffer());
        // nginx arms its timer from a clock read at its last wake-up, so it
        // may fire a little early; without the latency it answers in ~1 ms.
        ok(performance.now() - started >= 100, "answered before its latency");
        equal(response.status, range ? 206 : 200);
        deepStrictEqual(body, range ? bytes.subarray(100, 200) : bytes);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
