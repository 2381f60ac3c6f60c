/**
 * A pool's read of 192 MiB of 4 MiB chunks keeps to the one 64 MiB window a
 * read may hold in flight, across its workers. The size is the point, so it
 * is left out of `deno task test:fast`.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { chunkReadWindow } from "../src/zarr/read_window.ts";
import { buildZarrStore } from "../fixtures/zarr_writer.ts";

Deno.test("a pool's parts read at once share the 64 MiB a read may hold in flight: big chunks keep to it across the workers", async () => {
  // 4 MiB chunks: the ceiling is 16 reads. A pool of 2 cuts the array into
  // 8 parts of 6 chunks and reads 4 at once, 2 per worker; with a window
  // each of its own, they would keep 24 chunk reads (96 MiB) in flight.
  const data = new Float32Array(48 * 1024 * 1024).fill(1.5);
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{
        path: "big",
        data,
        shape: [48, 1024, 1024],
        chunks: [1, 1024, 1024],
        compressor: "gzip",
      }],
      { format: 2 },
    ),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  equal(chunkReadWindow(4 * 2 ** 20).ceiling, 16);
  deepStrictEqual((await getArray(pool, "", "big")).shape, [48, 1024, 1024]);
  emu.faults.latencyMs = 20;
  emu.resetCounters();
  const { data: read } = await getArray(pool, "", "big");
  equal(read.length, data.length);
  ok((read as Float32Array).every((value) => value === 1.5));
  equal(emu.counters.storeGets, 48 + 1); // and .zarray
  const peak = emu.counters.peakConcurrentStoreGets;
  ok(peak <= 16, `peak ${peak} store GETs of 4 MiB chunks`);
});
