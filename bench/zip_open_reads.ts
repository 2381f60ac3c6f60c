/**
 * Store GETs that opening each zip archive of fixtures/ takes (the end
 * record and the central directory: `ls("")` on a fresh `zipTree`), and
 * how far from the archive's end its central directory starts: what the
 * first tail read's size (`FIRST_TAIL` in src/formats/zip/central_directory.ts)
 * is tuned on.
 *
 *     deno run -A bench/zip_open_reads.ts [--files]
 *
 * @module
 */

import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { zipTree } from "../zip.ts";
import { printTable } from "./synth_listing.ts";

const ROOT = new URL("../fixtures/", import.meta.url);
const KiB = 1024;

async function* zips(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* zips(url);
    else if (entry.name.endsWith(".zip")) yield url;
  }
}

/** Bytes from the central directory's start to the archive's end, from the last end record (zip64 aside). */
function directoryTail(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      const offset = view.getUint32(i + 16, true);
      return offset <= i ? bytes.length - offset : undefined;
    }
  }
  return undefined;
}

const files: Record<string, Uint8Array> = {};
for await (const url of zips(ROOT)) {
  files[url.pathname.slice(ROOT.pathname.length).replaceAll("/", "__")] =
    await Deno.readFile(url);
}
await using emu = await startEmulator({ files });
const fs = new RepoFs({ host: emu.host, pid: emu.pid });
await fs.ls("");

const rows: (string | number)[][] = [];
const byGets = new Map<number, number>();
const tails: number[] = [];
for (const name of Object.keys(files).sort()) {
  emu.resetCounters();
  const opened = await zipTree(fs, name).ls("").then(() => "", () => "refused");
  const gets = emu.counters.storeGets;
  byGets.set(gets, (byGets.get(gets) ?? 0) + 1);
  const tail = directoryTail(files[name]);
  if (tail !== undefined && !opened) tails.push(tail);
  rows.push([name, files[name].length, tail ?? "", gets, opened]);
}
if (Deno.args.includes("--files")) {
  printTable(
    ["archive", "bytes", "directory + end, bytes", "GETs to open", ""],
    rows,
  );
}
const total = [...byGets].reduce((sum, [gets, n]) => sum + gets * n, 0);
console.log(
  `${rows.length} archives, ${total} store GETs to open them: ${
    [...byGets].sort(([a], [b]) => a - b).map(([gets, n]) => `${n} in ${gets}`)
      .join(", ")
  }`,
);
tails.sort((a, b) => a - b);
const within = (bytes: number) => tails.filter((tail) => tail <= bytes).length;
console.log(
  `of the ${tails.length} opened: directory within the last ${
    [8, 64, 128, 256, 1024].map((k) => `${k} KiB: ${within(k * KiB)}`).join(
      ", ",
    )
  }; largest ${tails.at(-1)} bytes`,
);
