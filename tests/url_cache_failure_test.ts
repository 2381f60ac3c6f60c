import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import { recordingLogger, runCli, until } from "./support.ts";

const FILES = { "a.txt": "aaa", "b.txt": "bbb", "c.txt": "ccc" };
const decoder = new TextDecoder();
/** Longer than the cache's first write waits (1 s) after a URL is added. */
const PAST_FIRST_WRITE_MS = 1_500;

/** A temp dir for one test, removed at its end. */
async function tempDir() {
  const path = await Deno.realPath(await Deno.makeTempDir());
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** Reads every file through `fs` and checks its bytes. */
async function readAll(fs: RepoFs): Promise<void> {
  for (const [name, text] of Object.entries(FILES)) {
    equal(decoder.decode(await fs.catFile(name)), text);
  }
}

function warnings(logger: ReturnType<typeof recordingLogger>): string[] {
  return logger.lines.filter(({ level }) => level === "warn").map(({ msg }) =>
    msg
  );
}

for (
  const [what, place] of [
    ["a regular file", (file: string) => file],
    ["a path below a regular file", (file: string) => join(file, "cache")],
  ] as const
) {
  Deno.test(`urlCacheDir naming ${what}: one warning, the reads go on, and the timed write throws nothing`, async () => {
    await using emu = await startEmulator({ files: FILES });
    await using tmp = await tempDir();
    const file = join(tmp.path, "not-a-dir");
    await Deno.writeTextFile(file, "mine");
    const logger = recordingLogger();
    const fs = new RepoFs({
      host: emu.host,
      pid: emu.pid,
      urlCacheDir: place(file),
      logger,
    });
    await readAll(fs);
    // The write is due a second after the first URL: an error thrown from
    // its timer would fail this test.
    await new Promise((resolve) => setTimeout(resolve, PAST_FIRST_WRITE_MS));
    await readAll(fs);
    const said = warnings(logger);
    equal(said.length, 1, said.join("\n"));
    ok(said[0].includes(place(file)), said[0]);
    equal(await Deno.readTextFile(file), "mine", "the file is left alone");
    equal(emu.counters.heads, 3);
  });
}

Deno.test("urlCacheDir replaced by a regular file while reading: one warning when the write fails, and the reads go on", async () => {
  await using emu = await startEmulator({ files: FILES });
  await using tmp = await tempDir();
  const dir = join(tmp.path, "cache");
  await Deno.mkdir(dir);
  const logger = recordingLogger();
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    urlCacheDir: dir,
    logger,
  });
  equal(decoder.decode(await fs.catFile("a.txt")), "aaa");
  await Deno.remove(dir);
  await Deno.writeTextFile(dir, "in the way");
  await until(() => warnings(logger).length > 0, "the write failed");
  await readAll(fs);
  await new Promise((resolve) => setTimeout(resolve, PAST_FIRST_WRITE_MS));
  const said = warnings(logger);
  equal(said.length, 1, said.join("\n"));
  ok(said[0].startsWith("Cannot write the URL cache file"), said[0]);
  equal(await Deno.readTextFile(dir), "in the way");
});

Deno.test("a URL cache file of garbage: one warning, the reads go on, and the next write replaces it", async () => {
  await using emu = await startEmulator({ files: FILES });
  await using tmp = await tempDir();
  const options = { host: emu.host, pid: emu.pid, urlCacheDir: tmp.path };
  const cacheFile = async () => {
    for await (const entry of Deno.readDir(tmp.path)) {
      if (entry.name.endsWith(".json")) return join(tmp.path, entry.name);
    }
  };
  equal(decoder.decode(await new RepoFs(options).catFile("a.txt")), "aaa");
  await until(async () => await cacheFile() !== undefined, "first write");
  const path = (await cacheFile())!;
  await Deno.writeFile(path, crypto.getRandomValues(new Uint8Array(4096)), {
    mode: 0o600,
  });

  const logger = recordingLogger();
  const fs = new RepoFs({ ...options, logger });
  await readAll(fs);
  await until(async () => {
    try {
      return JSON.parse(await Deno.readTextFile(path)).urls.length === 3;
    } catch {
      return false;
    }
  }, "the garbage is written over");
  const said = warnings(logger);
  equal(said.length, 1, said.join("\n"));
  ok(said[0].includes("it is not JSON"), said[0]);
  equal(emu.counters.heads, 4); // a.txt twice: the garbage held no URL
});

Deno.test("get --url-cache-dir naming a regular file downloads every file and prints its summary", async () => {
  await using emu = await startEmulator({ files: FILES });
  await using tmp = await tempDir();
  const file = join(tmp.path, "not-a-dir");
  await Deno.writeTextFile(file, "mine");
  const out = join(tmp.path, "out");
  const run = await runCli([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    "--url-cache-dir",
    file,
    "--verbose",
    "get",
    "**",
    "--out",
    out,
  ]);
  equal(run.code, 0, run.stderr);
  ok(run.stdout.includes("Downloaded 3 of 3 files"), run.stdout);
  for (const [name, text] of Object.entries(FILES)) {
    equal(await Deno.readTextFile(join(out, name)), text);
  }
  const warned = run.stderr.split("\n").filter((line) =>
    line.startsWith("warn:")
  );
  equal(warned.length, 1, run.stderr);
  ok(warned[0].includes(file), warned[0]);
  equal(await Deno.readTextFile(file), "mine");
});
