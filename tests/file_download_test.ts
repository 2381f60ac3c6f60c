import {
  deepStrictEqual,
  equal,
  match,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import { writeAll } from "../src/base/write_all.ts";
import { checksumKind, listedChecksum } from "../src/base/checksum.ts";
import { startEmulator } from "../emulator.ts";
import {
  checksumHash,
  createTemporary,
  downloadToFile,
  removeTemporary,
  temporaryName,
  verifyDownload,
} from "../src/download/file_download.ts";
import { RepoFs } from "../src/repo_fs.ts";

Deno.test("writeAll writes every byte", async () => {
  const calls: number[][] = [];
  const twoAtATime = {
    write: (bytes: Uint8Array) => {
      calls.push([...bytes.subarray(0, 2)]);
      return Promise.resolve(Math.min(2, bytes.byteLength));
    },
  };
  await writeAll(twoAtATime, new Uint8Array([1, 2, 3, 4, 5]));
  deepStrictEqual(calls, [[1, 2], [3, 4], [5]]);
});

Deno.test("checksum kinds", () => {
  equal(checksumKind("SHA-1"), "sha1");
  equal(checksumKind("md5"), "md5");
  equal(checksumKind("UNF"), undefined);
});

Deno.test("the listed checksum, else md5", () => {
  deepStrictEqual(
    listedChecksum({ md5: "900150983cd24fb0d6963f7d28e17f72" }),
    { type: "MD5", value: "900150983cd24fb0d6963f7d28e17f72" },
  );
});

Deno.test("temporary names are hidden and marked", () => {
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

Deno.test("downloadToFile checks and renames", async () => {
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

Deno.test("createTemporary makes an empty file", async () => {
  const dir = await Deno.makeTempDir();
  const temporary = await createTemporary(`${dir}/a.csv`);
  strictEqual((await Deno.stat(temporary)).size, 0);
  await removeTemporary(temporary);
  await Deno.remove(dir);
});

Deno.test("removeTemporary accepts a file already gone", async () => {
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

Deno.test("checksumHash follows the listed checksum", () => {
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

Deno.test("verifyDownload checks bytes and checksum", () => {
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
