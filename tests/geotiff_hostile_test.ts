import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { runCapped } from "./memory_cap.ts";

// Small TIFFs written by geotiff.js, one tag each patched to what a hostile or
// damaged file declares; each read in a child with a 300 MB memory cap.
const HOSTILE = {
  // 2^31 - 1 pixels a side: the whole image would be 4.6e18 values.
  "huge.tif": { 256: 0x7fffffff, 257: 0x7fffffff },
  // 40,000 pixels a side in one strip the file does not have.
  "wide.tif": { 256: 40000, 257: 40000, 278: 40000 },
  // The strip 2 GB past the end of the file, 2 GB long.
  "far.tif": { 273: 0x7ffffff0, 279: 0x7fffffff },
};

Deno.test("readRaster of hostile TIFFs: a GeotiffFormatError naming the file, in bounded memory", async () => {
  const run = await runCapped({
    setup: `
const { RepoFs } = await import(REPO + "mod.ts");
const { startEmulator } = await import(REPO + "emulator.ts");
const { readRaster } = await import(REPO + "geotiff.ts");
const { writeArrayBuffer } = await import("geotiff");
function patched(tags) {
  const tif = new Uint8Array(writeArrayBuffer(Array.from({ length: 64 }, (_, i) => i), { width: 8, height: 8 }));
  const view = new DataView(tif.buffer);
  const le = tif[0] === 0x49;
  const ifd = view.getUint32(4, le);
  for (let i = 0; i < view.getUint16(ifd, le); i++) {
    const at = ifd + 2 + 12 * i;
    const tag = view.getUint16(at, le);
    if (tag in tags) {
      view.setUint16(at + 2, 4, le);
      view.setUint32(at + 4, 1, le);
      view.setUint32(at + 8, tags[tag], le);
    }
  }
  return tif;
}
const hostile = ${JSON.stringify(HOSTILE)};
const files = Object.fromEntries(Object.entries(hostile).map(([n, t]) => [n, patched(t)]));
const emu = await startEmulator({ files });
const fs = new RepoFs({ host: emu.host, pid: emu.pid });
await fs.ls("");
`,
    read: `(async () => {
  const outcomes = [];
  for (const name of Object.keys(hostile)) {
    for (const window of [undefined, [0, 0, 4, 4]]) {
      outcomes.push(await readRaster(fs, name, { window }).then(
        () => [name, "read"],
        (e) => [name, e.name, e.message.startsWith('Not a readable GeoTIFF "' + name + '": ')],
      ));
    }
  }
  return outcomes;
})()`,
  }, 300);
  strictEqual(run.code, 0, run.stderr);
  strictEqual(run.killed, false);
  deepStrictEqual(
    run.result,
    Object.keys(HOSTILE).flatMap((name) => [
      [name, "GeotiffFormatError", true],
      [name, "GeotiffFormatError", true],
    ]),
  );
  ok(run.peakMb - run.baselineMb < 300, `${run.peakMb} vs ${run.baselineMb}`);
});
