import { ok, strictEqual } from "node:assert/strict";
import { runCapped } from "./memory_cap.ts";

// Each child serves one hostile file (h5py wrote it; fixtures/hdf5/make_hostile.py)
// and reads its one variable whole, returning the error's class, fields and message.
function script(fixture: string, variable: string, pool: boolean) {
  return {
    setup: `
      const { gunzipSync } = await import("node:zlib");
      const { RepoFs, RepoFsPool, FormatError } = await import(REPO + "mod.ts");
      const { startEmulator } = await import(REPO + "emulator.ts");
      const { getArray } = await import(REPO + "zarr.ts");
      const bytes = new Uint8Array(gunzipSync(
        await Deno.readFile(new URL("fixtures/hdf5/${fixture}.gz", REPO)),
      ));
      const emu = await startEmulator({ files: { "${fixture}": bytes } });
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      const source = ${pool ? "new RepoFsPool(fs, { workers: 2 })" : "fs"};
      await fs.info("${fixture}");`,
    read: `getArray(source, "${fixture}", "${variable}").then(
      (r) => ({ values: r.data.length }),
      (e) => ({
        formatError: e instanceof FormatError,
        name: e.name,
        path: e.path,
        variable: e.variable,
        message: e.message,
      }),
    )`,
  };
}

interface Outcome {
  formatError?: boolean;
  name?: string;
  path?: string;
  variable?: string;
  message?: string;
}

for (const pool of [false, true]) {
  const on = pool ? "a RepoFsPool of 2" : "a RepoFs";
  Deno.test(`an HDF5 chunk of 1,000,000 declared bytes that inflates to 1 GiB is a named error, bounded in memory, on ${on}`, async () => {
    const run = await runCapped(script("bomb.h5", "bomb", pool), 300);
    strictEqual(run.killed, false, `killed at ${run.peakMb} MB`);
    strictEqual(run.code, 0, run.stderr);
    const got = run.result as Outcome;
    strictEqual(got.formatError, true, JSON.stringify(got));
    strictEqual(got.name, "Hdf5FormatError");
    strictEqual(got.path, "bomb.h5");
    strictEqual(got.variable, "bomb");
    ok(
      got.message!.includes("inflates past its declared 1000000 bytes"),
      got.message,
    );
    ok(run.peakMb - run.baselineMb < 300, `${run.peakMb} - ${run.baselineMb}`);
  });

  Deno.test(`an HDF5 chunk of 1,000 declared bytes stored in 1 MB is refused before it is read, on ${on}`, async () => {
    const run = await runCapped(script("oversized.h5", "oversized", pool), 300);
    strictEqual(run.code, 0, run.stderr);
    const got = run.result as Outcome;
    strictEqual(got.formatError, true, JSON.stringify(got));
    strictEqual(got.variable, "oversized");
    ok(
      /chunk 0 is stored in \d+ bytes, more than its 1000 bytes of values can take deflated/
        .test(got.message!),
      got.message,
    );
    ok(run.peakMb - run.baselineMb < 300, `${run.peakMb} - ${run.baselineMb}`);
  });
}
