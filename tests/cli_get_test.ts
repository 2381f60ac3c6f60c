// deno-lint-ignore-file require-await -- stand-ins keep the async shape of what they replace
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { type FileInfo, RepoFs, RepoFsPool } from "../mod.ts";
import {
  downloadAll,
  downloadFile,
  type DownloadOptions,
  isComplete,
} from "../src/cli/download.ts";
import { OutputRoot } from "../src/cli/safe_path.ts";
import { parseCommandLine } from "../src/cli/args.ts";
import { Context } from "../src/cli/context.ts";
import { get } from "../src/cli/get.ts";
import { Output } from "../src/cli/io.ts";
import { selectFiles } from "../src/cli/select.ts";
import { cat } from "../src/cli/cat.ts";

/** Download options that report nothing and are never stopped. */
function quietOptions(parallel: number): DownloadOptions {
  return {
    parallel,
    resume: false,
    signal: new AbortController().signal,
    onBytes() {},
    onOutcome() {},
  };
}

Deno.test("downloadAll downloads below root", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hello", "d/b.txt": "world" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const files = await Promise.all(
    (await fs.find("")).map((path) => fs.info(path)),
  );
  const options = quietOptions(2);
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

Deno.test("downloadFile downloads one file", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const options = quietOptions(1);
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

Deno.test("isComplete checks a file as a download would", async () => {
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

Deno.test("get downloads matching files", async () => {
  await using emu = await startEmulator({
    files: { "data/a.csv": "x,y\n", "README.md": "# hi" },
  });
  const dir = await Deno.makeTempDir();
  try {
    const line = parseCommandLine([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "data",
      "--out",
      dir,
    ]);
    strictEqual(await get(new Context(line, new Output())), 0); // a summary line on stdout
    strictEqual(await Deno.readTextFile(`${dir}/data/a.csv`), "x,y\n");
    deepStrictEqual(
      await Array.fromAsync(Deno.readDir(dir), (entry) => entry.name),
      ["data"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("selectFiles matches get's patterns", async () => {
  await using emu = await startEmulator({
    files: {
      "climate.zarr/.zgroup": "{}",
      "climate.zarr/t/.zarray": "{}",
      "README.md": "# hi",
      "notes.txt": "n",
    },
    entries: [{ directoryLabel: "..", filename: "x.txt", file: "evil" }],
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { files, refused, unmatched } = await selectFiles(fs, [
    "climate.zarr",
    "*.md",
    "*.nc",
  ]);
  deepStrictEqual(files.map((file) => file.name), [
    "README.md",
    "climate.zarr/.zgroup",
    "climate.zarr/t/.zarray",
  ]);
  deepStrictEqual(refused, []);
  deepStrictEqual(unmatched, ["*.nc"]);
  const everything = await selectFiles(fs, ["/"]); // the listing's "../x.txt" included
  deepStrictEqual(everything.refused.map((refusal) => refusal.path), [
    "../x.txt",
  ]);
});

Deno.test("cat streams a file or a range", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello, world" } });
  const out = new Output();
  let written = "";
  out.bytes = async (bytes) => {
    written += new TextDecoder().decode(bytes);
  }; // instead of stdout
  const line = (...options: string[]) =>
    parseCommandLine([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "cat",
      "a.txt",
      ...options,
    ]);
  strictEqual(await cat(new Context(line(), out)), 0);
  strictEqual(written, "hello, world"); // streamed whole
  written = "";
  strictEqual(await cat(new Context(line("--start", "-5"), out)), 0);
  strictEqual(written, "world"); // a range, counted from the end
});
