// Issue 2 benchmark (tree) as `deno bench` cases; each group prints the
// ratio to its baseline. The table-printing script with heap numbers and
// first-`ls` timings is bench/table_build.ts.
//
// Command (from the repository root; about 20 s, mostly setup):
//   deno bench --allow-net=127.0.0.1 --allow-read --allow-env bench/tree_bench.ts
// (`deno task bench` runs every *_bench.ts in bench/, this one included.)
//
// No network: the listing comes from an injected fetch (see
// listFilesOver in synth_listing.ts) and RepoFs instances are restored from
// a serialised listing.

import { RepoFs } from "../mod.ts";
import { RoutingTable } from "../src/tree/routing_table.ts";
import {
  listFilesOver,
  listingJson,
  offlineDataset,
  zarrLayout,
} from "./synth_listing.ts";

// --- build vs JSON.parse ---------------------------------------------------

for (const [n, iterations] of [[10_000, 60], [100_000, 12]] as const) {
  const { text } = listingJson(n);
  const listFiles = listFilesOver(text);
  const label = `${n / 1000}k`;
  Deno.bench({
    name: `JSON.parse of a ${label}-entry listing`,
    group: `build ${label}`,
    baseline: true,
    n: iterations,
    warmup: 3,
    fn() {
      JSON.parse(text);
    },
  });
  Deno.bench({
    name: `listedFiles + RoutingTable.build, ${label} entries`,
    group: `build ${label}`,
    n: iterations,
    warmup: 3,
    async fn(b) {
      const files = await listFiles(); // parse: not timed
      b.start();
      const table = RoutingTable.build(files);
      b.end();
      if (table.fileCount !== n) throw new Error("wrong table");
    },
  });
}

// --- ls of a 10-child directory in a 1k and a 1M table ----------------------

function restored(n: number): { fs: RepoFs; stores: string[] } {
  const { serialized, stores } = offlineDataset(n);
  return { fs: RepoFs.fromSerialized(serialized), stores: stores.slice(0, 9) };
}

const small = restored(1_000);
const big = restored(1_000_000);
let lsTurn = 0;
for (
  const [label, { fs, stores }, baseline] of [
    ["1k", small, true],
    ["1M", big, false],
  ] as const
) {
  Deno.bench({
    name: `ls of a 10-child directory (9 dirs in turn), ${label} table`,
    group: "ls 10 children",
    baseline,
    async fn() {
      const children = await fs.ls(stores[lsTurn++ % stores.length]);
      if (children.length !== 10) throw new Error("not 10 children");
    },
  });
}

// --- glob over 100k entries -------------------------------------------------

const globbed = restored(100_000);
const zarrays = zarrLayout(100_000).zarrays;
Deno.bench({
  name: 'fs.find("") over 100k entries',
  group: "glob 100k",
  baseline: true,
  n: 40,
  warmup: 3,
  async fn() {
    await globbed.fs.find("");
  },
});
Deno.bench({
  name: 'fs.glob("**/.zarray") over 100k entries',
  group: "glob 100k",
  n: 40,
  warmup: 3,
  async fn() {
    const found = await globbed.fs.glob("**/.zarray");
    if (found.length !== zarrays) throw new Error("wrong glob");
  },
});
