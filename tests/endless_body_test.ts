/**
 * Issue 28 item 7: a body without end does not fill the disk. A listed
 * `filesize` given as a string of digits is a size; a file with no listed
 * size is bounded by its answer's Content-Length, and a body with neither
 * stops at `maxBytes` (CLI `--max-bytes`), named in the error, with nothing
 * of it kept.
 */
import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  throws,
} from "node:assert/strict";
import { RepoFs, RepoFsPool, RepoProtocolError } from "../mod.ts";
import {
  type EmulatorOptions,
  type RequestInfo,
  startEmulator,
} from "../emulator.ts";
import { downloadToFile } from "../src/download/file_download.ts";
import { filesBelow, runCli } from "./support.ts";

const MAX = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A 200 that never ends and says no length, closed when the client goes. */
function endless(info: RequestInfo): Response {
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      info.signal.addEventListener("abort", () => {
        if (open) controller.close();
        open = false;
      });
    },
    pull(controller) {
      if (open) controller.enqueue(new Uint8Array(CHUNK).fill(7));
    },
    cancel() {
      open = false;
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    headers: { "content-type": "application/octet-stream" },
  });
}

/** An emulator whose every content answer is endless. */
async function setup(files: EmulatorOptions["files"]) {
  const emu = await startEmulator({ files });
  emu.faults.respond = (_request, info) =>
    info.route === "content" ? endless(info) : undefined;
  return emu;
}

const UNSIZED = {
  "nosize.bin": { content: "x", listedSize: null },
  "t.tab": {
    content: "a\tb\n1\t2\n",
    listedSize: 4,
    tabular: true,
    contentType: "text/tab-separated-values",
  },
};

/** The error of a read stopped at `maxBytes`. */
function stoppedAt(max: number) {
  return (e: unknown) => {
    ok(e instanceof RepoProtocolError, String(e));
    ok(e.message.includes(`goes on past maxBytes (${max} bytes)`), e.message);
    return true;
  };
}

Deno.test("an endless body of a file with no exact listed size stops at maxBytes, named in the error", async () => {
  await using emu = await setup(UNSIZED);
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, maxBytes: MAX });
  for (const path of Object.keys(UNSIZED)) {
    await rejects(fs.catFile(path), stoppedAt(MAX), path);
    const file = await fs.open(path);
    await rejects(file.read(0, 10).then(() => file.read()), stoppedAt(MAX));
    const streamed = (async () => {
      for await (const _ of file.stream());
    })();
    await rejects(streamed, stoppedAt(MAX), `${path}, streamed`);
  }
});

Deno.test("a download of an endless body writes no more than maxBytes and keeps nothing", async () => {
  await using emu = await setup(UNSIZED);
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, maxBytes: MAX });
  const dir = await Deno.makeTempDir();
  try {
    for (const path of Object.keys(UNSIZED)) {
      let written = 0;
      await rejects(
        downloadToFile(await fs.open(path), await fs.info(path), `${dir}/f`, {
          onBytes: (n) => written += n,
        }),
        stoppedAt(MAX),
      );
      ok(written <= MAX && written > 0, `${path}: ${written} bytes written`);
      deepStrictEqual(await filesBelow(dir), [], path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("maxBytes survives serialize() into a pool's workers, and must be an integer >= 1", async () => {
  await using emu = await setup(UNSIZED);
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, maxBytes: MAX });
  equal(fs.serialize().options.maxBytes, MAX);
  equal(
    RepoFs.fromSerialized(structuredClone(fs.serialize())).serialize().options
      .maxBytes,
    MAX,
  );
  await using pool = new RepoFsPool(fs, { workers: 1 });
  await rejects(pool.catFile("nosize.bin"), stoppedAt(MAX));
  for (const maxBytes of [0, 1.5, -1]) {
    throws(
      () => new RepoFs({ host: emu.host, pid: emu.pid, maxBytes }),
      /maxBytes must be an integer >= 1/,
    );
  }
});

Deno.test("get --max-bytes: an endless body ends the file with exit 1, naming the limit, and nothing is kept", async () => {
  await using emu = await setup(UNSIZED);
  const out = await Deno.makeTempDir();
  try {
    const run = await runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "**",
      "--out",
      out,
      "--max-bytes",
      String(MAX),
    ]);
    equal(run.code, 1, run.stderr);
    for (const path of Object.keys(UNSIZED)) {
      ok(
        run.stderr.includes(
          `failed "${path}": the answer said no Content-Length and goes on past maxBytes (${MAX} bytes)`,
        ),
        run.stderr,
      );
    }
    deepStrictEqual(await filesBelow(out), []);
    const bad = await runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "--max-bytes",
      "0",
      "cat",
      "nosize.bin",
    ]);
    equal(bad.code, 2, bad.stderr);
    ok(bad.stderr.includes("--max-bytes must be >= 1"), bad.stderr);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

/** The listing answer with every `filesize` turned into a string of digits. */
async function sizesAsStrings(response: Response): Promise<Response> {
  const turn = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(turn);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        key === "filesize" && typeof inner === "number"
          ? [key, String(inner)]
          : [key, turn(inner)]
      ),
    );
  };
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(turn(await response.json())), {
    status: response.status,
    headers,
  });
}

Deno.test('a listed filesize of "5" is a size of 5, checked as a number is', async () => {
  await using emu = await startEmulator({
    files: {
      "five.txt": "hello",
      "short.txt": { content: "hello", listedSize: 3 },
    },
  });
  let endlessContent = false;
  emu.faults.respond = async (_request, info) => {
    if (info.route === "listing") return sizesAsStrings(await info.next());
    return info.route === "content" && endlessContent
      ? endless(info)
      : undefined;
  };
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  equal((await fs.info("five.txt")).size, 5);
  equal((await fs.open("short.txt")).size, 3);
  deepStrictEqual(
    new TextDecoder().decode(await fs.catFile("five.txt")),
    "hello",
  );
  deepStrictEqual(
    new TextDecoder().decode(await fs.catFile("five.txt", { start: -2 })),
    "lo",
  );
  await rejects(fs.catFile("short.txt"), /5 bytes, but the listing says 3/);
  endlessContent = true;
  await rejects(
    fs.catFile("five.txt"),
    /the answer is for a file of \d+ bytes, but the listing says 5: it is not this file/,
    "an endless answer is cut at the listed size",
  );
});
