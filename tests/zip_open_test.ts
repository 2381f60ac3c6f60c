import { deepStrictEqual, equal, ok } from "node:assert/strict";
import zlib from "node:zlib";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { zipTree } from "../zip.ts";
import { patterned } from "./support.ts";
import { zipArchive } from "./zip_archive.ts";

/** `count` stored members of `size` bytes each, and where the directory starts. */
function archiveOf(count: number, size: number) {
  const members = Array.from({ length: count }, (_, i) => {
    const data = patterned(size, i);
    const name = `d/${String(i).padStart(5, "0")}.bin`;
    return { name, method: 0, data, size, crc32: zlib.crc32(data) };
  });
  const archive = zipArchive(members);
  const end = new DataView(archive.buffer, archive.length - 22);
  return { members, archive, directoryAt: end.getUint32(16, true) };
}

/** Opens data.zip (lists it) and gives the store GETs and bytes that took. */
async function opening(archive: Uint8Array) {
  await using emu = await startEmulator({ files: { "data.zip": archive } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("data.zip");
  emu.resetCounters();
  const tree = zipTree(fs, "data.zip");
  const names = await tree.find("");
  return {
    names,
    gets: emu.counters.storeGets,
    bytes: emu.counters.storeBytes,
  };
}

Deno.test("a 10 MB archive of 300 members opens in one GET: its tail holds the directory", async () => {
  const { members, archive, directoryAt } = archiveOf(300, 32 * 1024);
  ok(archive.length - directoryAt > 8192); // more than a fixed 8 KiB holds
  const { names, gets } = await opening(archive);
  deepStrictEqual(names, members.map(({ name }) => name));
  equal(gets, 1);
});

Deno.test("a directory larger than the tail costs one more GET, for only the part before the tail", async () => {
  const { members, archive, directoryAt } = archiveOf(2000, 100);
  const { names, gets, bytes } = await opening(archive);
  equal(names.length, members.length);
  equal(gets, 2);
  equal(bytes, archive.length - directoryAt);
});
