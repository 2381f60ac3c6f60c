/**
 * Synthetic, Dataverse-shaped dataset listings for the benchmarks: many Zarr
 * v2 stores (`s12.zarr/.zgroup`, `s12.zarr/.zattrs`), eight variables per
 * store (`s12.zarr/var3/.zarray`, `.zattrs`) and chunk files named by their
 * grid position (`s12.zarr/var3/0.4.7`), plus a `README.md` at the root.
 *
 * File entries are made by the emulator's own `fileEntry` and wrapped by its
 * `versionObject`/`collectionItem`, so the JSON has exactly the shape
 * endpoint 2 answers with (`label`, `restricted`, `directoryLabel`,
 * `version`, `datasetVersionId`, `dataFile: {id, persistentId, filename,
 * contentType, filesize, storageIdentifier, rootDataFileId, md5, checksum,
 * creationDate}`).
 *
 * Not a benchmark itself (no `_bench.ts` suffix); imported by the others.
 *
 * @module
 */

import {
  collectionItem,
  type DatasetFacts,
  fileEntry,
  versionObject,
} from "../src/emulator/metadata.ts";
import { RepoApi } from "../src/api/repo_api.ts";
import { RetryPolicy } from "../src/api/retry.ts";
import type { ListedFile } from "../src/base/listed_file.ts";
import { RoutingTable } from "../src/tree/routing_table.ts";
import type { SerializedRepoFs } from "../src/serialize.ts";

/** Variables per store; with `.zgroup` and `.zattrs` a store has 10 children. */
export const VARIABLES_PER_STORE = 8;

/** One listed file before it becomes a JSON entry. */
export interface SynthFile {
  /** `directoryLabel`; `undefined` for a root-level file. */
  directoryLabel?: string;
  /** `filename`. */
  filename: string;
  /** What kind of Zarr key it is. */
  kind: "readme" | "zgroup" | "zattrs" | "zarray" | "chunk";
}

/** A synthetic layout and the numbers the benchmarks check against. */
export interface SynthLayout {
  /** Files in listing order; exactly `n` of them. */
  files: SynthFile[];
  /** Number of complete-or-partial stores. */
  stores: number;
  /** Number of `.zarray` files. */
  zarrays: number;
  /** Chunk files per variable (the last store may have fewer). */
  chunksPerVariable: number;
}

/**
 * `n` files in a Zarr-like layout. Stores hold about `min(10_000, n / 10)`
 * files each, so every table has at least 10 stores and each store directory
 * has exactly 10 children (`.zgroup`, `.zattrs`, `var0` .. `var7`) when
 * complete: the 10-child directories the `ls` benchmark lists.
 */
export function zarrLayout(n: number): SynthLayout {
  const perStore = Math.min(10_000, Math.max(18, Math.floor(n / 10)));
  const chunksPerVariable = Math.max(
    1,
    Math.ceil((perStore - 2) / VARIABLES_PER_STORE) - 2,
  );
  const side = Math.ceil(Math.cbrt(chunksPerVariable));
  const chunkNames: string[] = [];
  outer: for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      for (let k = 0; k < side; k++) {
        if (chunkNames.length === chunksPerVariable) break outer;
        chunkNames.push(`${i}.${j}.${k}`);
      }
    }
  }
  const files: SynthFile[] = [{ filename: "README.md", kind: "readme" }];
  let stores = 0;
  let zarrays = 0;
  const push = (file: SynthFile) => {
    if (files.length < n) files.push(file);
    return files.length < n;
  };
  while (files.length < n) {
    const store = `s${stores++}.zarr`;
    if (!push({ directoryLabel: store, filename: ".zgroup", kind: "zgroup" })) {
      break;
    }
    if (!push({ directoryLabel: store, filename: ".zattrs", kind: "zattrs" })) {
      break;
    }
    for (let v = 0; v < VARIABLES_PER_STORE && files.length < n; v++) {
      const dir = `${store}/var${v}`;
      if (files.length < n) zarrays++;
      if (!push({ directoryLabel: dir, filename: ".zarray", kind: "zarray" })) {
        break;
      }
      if (!push({ directoryLabel: dir, filename: ".zattrs", kind: "zattrs" })) {
        break;
      }
      for (const name of chunkNames) {
        if (!push({ directoryLabel: dir, filename: name, kind: "chunk" })) {
          break;
        }
      }
    }
  }
  return { files, stores, zarrays, chunksPerVariable };
}

/** The path `RepoFs` builds for a file: `<directoryLabel>/<filename>`. */
export function pathOf(file: SynthFile): string {
  return file.directoryLabel ? `${file.directoryLabel}/${file.filename}` : file
    .filename;
}

/** Deterministic 32-bit PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = "0123456789abcdef";

/** Pretend listed size and media type of a file of a given kind. */
function describe(kind: SynthFile["kind"], random: () => number) {
  switch (kind) {
    case "readme":
      return { size: 4_812, contentType: "text/markdown" };
    case "zgroup":
      return { size: 24, contentType: "application/json" };
    case "zattrs":
      return {
        size: 40 + Math.floor(random() * 400),
        contentType: "application/json",
      };
    case "zarray":
      return {
        size: 300 + Math.floor(random() * 120),
        contentType: "application/json",
      };
    case "chunk":
      return {
        size: 200_000 + Math.floor(random() * 800_000),
        contentType: "application/octet-stream",
      };
  }
}

/**
 * The endpoint-2 answer (`{"status":"OK","data":{...,"latestVersion":{...,
 * "files":[...]}}}`) for `n` synthetic files, as JSON text.
 */
export function listingJson(
  n: number,
  pid = "doi:10.5072/FK2/BENCH",
): { text: string; layout: SynthLayout } {
  const layout = zarrLayout(n);
  const facts: DatasetFacts = {
    pid,
    datasetId: 1,
    createdAt: new Date("2026-11-22T12:00:00Z"),
  };
  const random = prng(n);
  const stampHex = facts.createdAt.getTime().toString(16);
  const entries = layout.files.map((file, index) => {
    const id = 1001 + index;
    let md5 = "";
    for (let i = 0; i < 32; i++) md5 += HEX[Math.floor(random() * 16)];
    const { size, contentType } = describe(file.kind, random);
    return fileEntry(
      {
        id,
        filename: file.filename,
        directoryLabel: file.directoryLabel,
        contentType,
        listedSize: size,
        checksum: { type: "MD5", value: md5 },
        restricted: false,
        storageIdentifier: `s3://repo-emulator:${stampHex}-${
          id.toString(16).padStart(12, "0")
        }`,
      },
      1,
      facts.createdAt,
    );
  });
  const data = {
    ...collectionItem(facts),
    latestVersion: versionObject(
      facts,
      { id: 1, internalVersionNumber: 1 },
      entries,
    ),
  };
  return { text: JSON.stringify({ status: "OK", data }), layout };
}

/**
 * `RepoApi.listFiles` exactly as `RepoFs` calls it, over a `fetch` that
 * answers the given listing text without any network: its `text()` hands
 * back the pre-built string. The awaited part is the body read, the
 * `JSON.parse` and the envelope checks; the returned iterable is the real,
 * lazy `listedFiles` generator of `src/repo_api.ts`, so iterating it (as
 * `RoutingTable.build` does) is the real raw-entry → `ListedFile` conversion.
 */
export function listFilesOver(
  text: string,
  pid = "doi:10.5072/FK2/BENCH",
): () => Promise<Iterable<ListedFile>> {
  const fakeFetch = (() => {
    const response = new Response(null, { status: 200 });
    Object.defineProperty(response, "text", {
      value: () => Promise.resolve(text),
    });
    return Promise.resolve(response);
  }) as typeof fetch;
  const api = RepoApi.connect({
    host: "http://127.0.0.1:9",
    fetch: fakeFetch,
    timeoutMs: 600_000,
    retry: new RetryPolicy({ retries: 0 }),
  });
  return () => api.listFiles(pid, ":latest");
}

/** The `ListedFile`s straight from a layout (no JSON), for quick tables. */
export function* listedFromLayout(layout: SynthLayout): Iterable<ListedFile> {
  let id = 1001;
  for (const file of layout.files) {
    yield {
      path: pathOf(file),
      id: id++,
      size: 1000,
      contentType: "application/octet-stream",
      md5: "0123456789abcdef0123456789abcdef",
    };
  }
}

/**
 * A serialised `RepoFs` holding an `n`-file synthetic table (no server
 * behind it: only table operations work), and the stores that have exactly
 * 10 children, the directories the `ls` benchmarks list.
 *
 * @example
 * ```ts ignore
 * const { serialized, stores } = offlineDataset(1_000);
 * const fs = RepoFs.fromSerialized(serialized);
 * await fs.ls(stores[0]);
 * ```
 */
export function offlineDataset(
  n: number,
): { serialized: SerializedRepoFs; stores: string[] } {
  const layout = zarrLayout(n);
  const table = RoutingTable.build(listedFromLayout(layout));
  const stores: string[] = [];
  for (let i = 0; i < layout.stores; i++) {
    if (table.children(`s${i}.zarr`).length === 10) stores.push(`s${i}.zarr`);
  }
  const serialized: SerializedRepoFs = {
    format: "repo-fs/1",
    options: {
      host: "http://127.0.0.1:9",
      pid: "doi:10.5072/FK2/BENCH",
      version: ":latest",
      headConcurrency: 3,
      timeoutMs: 60_000,
      retry: {},
    },
    urls: [],
    listing: table.toCompact(),
  };
  return { serialized, stores };
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Prints rows as a Markdown table. */
export function printTable(
  header: string[],
  rows: (string | number)[][],
): void {
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}
