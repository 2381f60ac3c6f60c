// Behaviour of src/download/file_download.ts, moved here from the examples on its internal symbols.
import { equal, match, rejects, strictEqual, throws } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import {
  checksumHash,
  createTemporary,
  downloadToFile,
  removeTemporary,
  temporaryName,
  verifyDownload,
} from "../../../src/download/file_download.ts";
import { RepoFs } from "../../../src/repo_fs.ts";

Deno.test("temporaryName: A temporary name beside `target`: hidden, marked `.repo-fs-partial-`, with 16 random hex…", () => {
  match(
    temporaryName("/out/data/a.csv"),
    /^\/out\/data\/\.a\.csv\.repo-fs-partial-[0-9a-f]{16}$/,
  );
  const long = temporaryName(`/out/${"é".repeat(200)}`);
  strictEqual(
    long.split("/")[2].startsWith(`.${"é".repeat(48)}.repo-fs-partial-`),
    true,
  ); // 96 bytes kept
});

Deno.test("downloadToFile: Streams `opened` to a temporary name beside `target`, checks it against the listing entry…", async () => {
  await using emu = await startEmulator({
    files: {
      "data/a.csv": "x,y\n1,2\n",
      "data/bad.csv": { content: "x", md5: "0".repeat(32) },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const dir = await Deno.makeTempDir();
  const info = await fs.info("data/a.csv");
  const { bytes, verified } = await downloadToFile(
    await fs.open(info.name),
    info,
    `${dir}/a.csv`,
  );
  strictEqual(bytes, 8);
  strictEqual(verified, "md5");
  strictEqual(await Deno.readTextFile(`${dir}/a.csv`), "x,y\n1,2\n");
  const bad = await fs.info("data/bad.csv");
  await rejects(
    downloadToFile(await fs.open(bad.name), bad, `${dir}/bad.csv`),
    /MD5 mismatch/,
  );
  strictEqual([...Deno.readDirSync(dir)].length, 1); // the bad one was not kept
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createTemporary: Makes an empty temporary file for a download to `target`, under a new name from…", async () => {
  const dir = await Deno.makeTempDir();
  const temporary = await createTemporary(`${dir}/a.csv`);
  strictEqual((await Deno.stat(temporary)).size, 0);
  await removeTemporary(temporary);
  await Deno.remove(dir);
});

Deno.test("removeTemporary: Removes a temporary file of a download; one already gone is fine", async () => {
  const dir = await Deno.makeTempDir();
  const partial = temporaryName(`${dir}/a.csv`);
  await Deno.writeTextFile(partial, "half");
  await removeTemporary(partial);
  await removeTemporary(partial); // already gone: fine
  await Deno.mkdir(partial); // not a file: removing it fails and says which
  await rejects(
    removeTemporary(partial),
    /could not remove the temporary file .*repo-fs-partial-/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("checksumHash: A hash of the algorithm of `file`'s listed checksum; `undefined` when none is listed or…", () => {
  const file = {
    name: "a",
    type: "file" as const,
    size: 3,
    checksum: { type: "SHA-1", value: "" },
  };
  equal(
    checksumHash(file)?.update("abc").digest("hex"),
    "a9993e364706816aba3e25717850c26c9cd0d89d",
  );
  equal(
    checksumHash({ ...file, checksum: { type: "UNF", value: "x" } }),
    undefined,
  );
});

Deno.test("verifyDownload: Checks `received` bytes whose checksumHash gave `digest` (hex) against the listing entry…", () => {
  const file = {
    name: "a",
    type: "file" as const,
    size: 3,
    checksum: {
      type: "SHA-1",
      value: "a9993e364706816aba3e25717850c26c9cd0d89d",
    },
  };
  equal(
    verifyDownload(file, 3, "a9993e364706816aba3e25717850c26c9cd0d89d"),
    "sha1",
  );
  throws(
    () => verifyDownload(file, 3, "0".repeat(40)),
    /^Error: SHA-1 mismatch: the listing says a999.*, the bytes received have 0000.*; not kept$/,
  );
  equal(verifyDownload({ ...file, checksum: undefined }, 3, undefined), "size");
});
