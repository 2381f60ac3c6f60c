// Issue 31 benchmark: one deflated member of about 1 MiB out of a ~100 MiB
// zip of many members at 20 ms emulator latency, read whole (CRC-32 checked)
// through `zipTree` on a RepoFs and on a RepoFsPool of 2, against downloading
// the whole archive and reading the member from the bytes in memory. Every
// read starts cold (a fresh RepoFs); each is measured `--reps` times,
// alternating. Wall time and bytes from the store.
//
// Command (from the repository root; writes the archive with Debian's `zip`
// into a temporary directory first):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run bench/zip_member.ts
// Options: --members=1600 (random blobs of 64 KiB, stored), --reps=3.

import { deepStrictEqual } from "node:assert/strict";
import { countFlag } from "./flags.ts";
import { compareColdReads, memorySource } from "./cold_reads.ts";
import { writeZip, ZIP_TARGET as TARGET } from "./format_files.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { type ByteSource, zipTree } from "../zip.ts";

const MEMBERS = countFlag("members", 1600);
const REPS = countFlag("reps", 3);

const dir = await Deno.makeTempDir();
const { target } = await writeZip(dir, MEMBERS);
const archive = await Deno.readFile(`${dir}/big.zip`);
const listed = await new Deno.Command("/usr/bin/unzip", {
  args: ["-v", "big.zip", TARGET],
  cwd: dir,
}).output();
await Deno.remove(dir, { recursive: true });
const [, , compressed] = new TextDecoder().decode(listed.stdout).split("\n")
  .find((line) => line.endsWith(TARGET))!.trim().split(/\s+/);
console.log(
  `big.zip: ${
    (archive.length / 2 ** 20).toFixed(1)
  } MiB, ${MEMBERS} stored blobs of 64 KiB and ${TARGET}: ${target.length} bytes, ${compressed} deflated`,
);

await using emu = await startEmulator({
  files: { "big.zip": archive },
  faults: { latencyMs: 20 },
});

async function member(source: ByteSource): Promise<void> {
  deepStrictEqual(await zipTree(source, "big.zip").catFile(TARGET), target);
}

await compareColdReads(emu, [
  {
    name: "`zipTree` on a pool of 2",
    read: async () => {
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      await using pool = new RepoFsPool(fs, { workers: 2 });
      await member(pool);
    },
  },
  {
    name: "`zipTree` on `RepoFs`",
    read: () => member(new RepoFs({ host: emu.host, pid: emu.pid })),
  },
  {
    name: "download the whole archive, then `zipTree` over the bytes",
    read: async () => {
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      await member(memorySource("big.zip", await fs.catFile("big.zip")));
    },
  },
], { reps: REPS, fileSize: archive.length, what: `read of ${TARGET}` });
