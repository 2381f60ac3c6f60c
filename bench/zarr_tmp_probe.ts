import { buildZarrStore } from "../fixtures/zarr_writer.ts";
import { prng } from "./synth_listing.ts";
const [T, Y, X] = [Number(Deno.args[0] ?? 200), 128, 128];
const r = prng(1);
const data = new Float32Array(T * Y * X);
let i = 0;
for (let t = 0; t < T; t++) {
  for (let y = 0; y < Y; y++) {
    for (let x = 0; x < X; x++) {
      data[i++] = Math.round(
        (10 * Math.sin(t / 50 + x / 17) + 5 * Math.cos(y / 11 - t / 30) +
          (r() - 0.5)) * 100,
      ) / 100;
    }
  }
}
let t0 = performance.now();
const files = await buildZarrStore([{
  path: "f",
  data,
  shape: [T, Y, X],
  chunks: [1, Y, X],
  compressor: "gzip",
}], { format: 2, consolidated: true, prefix: "b.zarr" });
console.log("build ms", performance.now() - t0);
let stored = 0, n = 0;
for (const [k, v] of Object.entries(files)) {
  if (/\/\d+\.\d+\.\d+$/.test(k)) {
    stored += v.length;
    n++;
  }
}
console.log(
  n,
  "chunks",
  stored / n,
  "B/chunk avg; ratio",
  (n * Y * X * 4) / stored,
);
const chunks = Object.entries(files).filter(([k]) => /\/\d+\.\d+\.\d+$/.test(k))
  .map(([, v]) => v);
for (let rep = 0; rep < 3; rep++) {
  t0 = performance.now();
  for (const c of chunks) {
    const s = new Response(
      new Response(c.slice().buffer).body!.pipeThrough(
        new DecompressionStream("gzip"),
      ),
    );
    await s.arrayBuffer();
  }
  const ms = performance.now() - t0;
  console.log(
    "decode sequential",
    ms.toFixed(0),
    "ms,",
    (ms / n * 1000).toFixed(0),
    "us/chunk",
    (n * 64 / 1024 / (ms / 1000)).toFixed(0),
    "MiB/s",
  );
  t0 = performance.now();
  await Promise.all(
    chunks.map(async (c) =>
      await new Response(
        new Response(c.slice().buffer).body!.pipeThrough(
          new DecompressionStream("gzip"),
        ),
      ).arrayBuffer()
    ),
  );
  const ms2 = performance.now() - t0;
  console.log("decode concurrent", ms2.toFixed(0));
}
