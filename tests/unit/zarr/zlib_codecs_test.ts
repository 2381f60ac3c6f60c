// Behaviour of src/zarr/zlib_codecs.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { registry } from "zarrita";
import {
  syncZlibStore,
  useSyncZlibCodecs,
  withSyncZlibCodecs,
} from "../../../src/zarr/zlib_codecs.ts";

Deno.test("useSyncZlibCodecs: Registers the `node:zlib` codecs in this thread's copy of zarrita, under their own…", async () => {
  const zarritasOwn = registry.get("gzip");
  strictEqual(await useSyncZlibCodecs(), true);
  strictEqual(registry.get("gzip"), zarritasOwn);
  const Gzip = await registry.get("gzip (node:zlib)")!();
  const bytes = new Uint8Array(
    await new Response(
      new Blob(["hello"]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const codec = Gzip.fromConfig({}, {} as never) as {
    decode(b: Uint8Array): Uint8Array;
  };
  strictEqual(new TextDecoder().decode(codec.decode(bytes)), "hello");
});

Deno.test("withSyncZlibCodecs: Array metadata (the JSON of a v2 `.zarray` or a v3 `zarr.json`) with every gzip and…", () => {
  deepStrictEqual(
    withSyncZlibCodecs({
      zarr_format: 2,
      compressor: { id: "gzip", level: 1 },
      filters: null,
    }),
    {
      zarr_format: 2,
      compressor: { id: "gzip (node:zlib)", level: 1 },
      filters: null,
    },
  );
  deepStrictEqual(
    withSyncZlibCodecs({
      codecs: [{ name: "bytes" }, { name: "gzip" }],
      attributes: { name: "gzip" },
    }),
    {
      codecs: [{ name: "bytes" }, { name: "gzip (node:zlib)" }],
      attributes: { name: "gzip" },
    },
  );
});

Deno.test("syncZlibStore: `store`, except that array metadata (`.zarray`, `zarr.json`) comes with withSyncZlibCodecs…", async () => {
  const zarray = { zarr_format: 2, compressor: { id: "zlib" } };
  const store = await syncZlibStore({
    get: (key: string) =>
      Promise.resolve(
        new TextEncoder().encode(
          key.endsWith(".zarray") ? JSON.stringify(zarray) : "{}",
        ),
      ),
  });
  const bytes = await store.get("/t/.zarray");
  deepStrictEqual(JSON.parse(new TextDecoder().decode(bytes)).compressor, {
    id: "zlib (node:zlib)",
  });
});
