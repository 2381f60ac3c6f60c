// Behaviour of src/cli/download.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { type FileInfo, RepoFs, RepoFsPool } from "../../../mod.ts";
import {
  downloadAll,
  downloadFile,
  type DownloadOptions,
  isComplete,
} from "../../../src/cli/download.ts";
import { OutputRoot } from "../../../src/cli/safe_path.ts";

Deno.test("downloadAll: Downloads `files` below `root`, `parallel` at a time", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hello", "d/b.txt": "world" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const files = await Promise.all(
    (await fs.find("")).map((path) => fs.info(path)),
  );
  const options: DownloadOptions = {
    parallel: 2,
    resume: false,
    signal: new AbortController().signal,
    onBytes() {},
    onOutcome() {},
  };
  const dir = await Deno.makeTempDir();
  try {
    const root = await OutputRoot.open(dir);
    deepStrictEqual(await downloadAll(pool, root, files, options), [
      { path: "a.txt", status: "downloaded", bytes: 5, verified: "md5" },
      { path: "d/b.txt", status: "downloaded", bytes: 5, verified: "md5" },
    ]);
    strictEqual(await Deno.readTextFile(`${dir}/d/b.txt`), "world");
    const again = await downloadAll(pool, root, files, {
      ...options,
      resume: true,
    });
    deepStrictEqual(again.map((outcome) => outcome.status), [
      "skipped",
      "skipped",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("downloadFile: Downloads one file below `root`; `undefined` when the signal aborted it", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const options: DownloadOptions = {
    parallel: 1,
    resume: false,
    signal: new AbortController().signal,
    onBytes() {},
    onOutcome() {},
  };
  const dir = await Deno.makeTempDir();
  try {
    const root = await OutputRoot.open(dir);
    deepStrictEqual(
      await downloadFile(pool, root, await fs.info("a.txt"), options),
      { path: "a.txt", status: "downloaded", bytes: 5, verified: "md5" },
    );
    deepStrictEqual(
      await downloadFile(
        pool,
        root,
        { name: "../x", type: "file", size: 1 },
        options,
      ),
      {
        path: "../x",
        status: "failed",
        error: 'it has a ".." segment',
        refused: true,
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isComplete: Whether the file at `target` is the listed file, checked as a download of it would be (see…", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = `${dir}/a.txt`;
    await Deno.writeTextFile(target, "hello");
    const signal = new AbortController().signal;
    const listed: FileInfo = {
      name: "a.txt",
      type: "file",
      size: 5,
      checksum: { type: "MD5", value: "5d41402abc4b2a76b9719d911017c592" },
    };
    strictEqual(await isComplete(target, listed, signal), true);
    const changed = {
      ...listed,
      checksum: { type: "MD5", value: "0".repeat(32) },
    };
    strictEqual(await isComplete(target, changed, signal), false);
    strictEqual(
      await isComplete(
        target,
        { name: "a.txt", type: "file", size: 5 },
        signal,
      ),
      true,
    ); // the size alone
    strictEqual(
      await isComplete(
        target,
        { name: "a.txt", type: "file", size: null },
        signal,
      ),
      false,
    ); // nothing to check
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
