import { deepStrictEqual, equal, ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoFs, RepoHttpError } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { zarrStore } from "../zarr.ts";
import { chunkQueue } from "../src/zarr/chunk_queue.ts";
import { ReadWindow } from "../src/zarr/read_window.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";

Deno.test("one instance's retries leave another instance's read window alone", async () => {
  await using failing = await startEmulator({ files: { "busy.bin": "x" } });
  failing.faults.respond = (_request, info) =>
    info.route === "content"
      ? new Response("busy", { status: 503 })
      : undefined;
  const busy = new RepoFs({
    host: failing.host,
    pid: failing.pid,
    retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
  });

  const values = ramp(Float32Array, 8 * 4);
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{ path: "t", data: values, shape: [8, 4], chunks: [1, 4] }],
      { format: 2, prefix: "a.zarr" },
    ),
  });
  const calm = new RepoFs({ host: emu.host, pid: emu.pid });
  const arr = await zarr.open(
    zarr.root(zarrStore(calm, "a.zarr")).resolve("t"),
    { kind: "array" },
  );
  // Every chunk read of `calm` waits, mid-request, for `busy` to retry and give up.
  const failures: unknown[] = [];
  emu.faults.respond = async (_request, info) => {
    if (info.route === "content") {
      await busy.catFile("busy.bin").catch((error) => failures.push(error));
    }
    return undefined;
  };
  const window = new ReadWindow();
  let congestions = 0;
  const congested = window.congested.bind(window);
  window.congested = () => (congestions++, congested());

  const { data } = await zarr.get(arr, null, {
    createQueue: () => chunkQueue(window, () => calm.retries()),
  });
  deepStrictEqual(data, values);
  equal(failures.length, 8);
  ok(
    failures.every((error) =>
      error instanceof RepoHttpError && error.status === 503
    ),
  );
  ok(busy.retries() >= 8 * 3, `busy retried ${busy.retries()} times`);
  equal(calm.retries(), 0);
  equal(congestions, 0, "calm's window narrowed for busy's retries");
});
