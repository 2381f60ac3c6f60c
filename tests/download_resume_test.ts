// Downloads that resume mid-file: an interrupted `--resume` download keeps
// its bytes and a record of the object; the next one fetches only the rest,
// held to that object, and keeps the file only once the whole of it
// verifies. A changed object, a partial file without its record, or kept
// bytes that are wrong start over: never a splice of two objects.
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Downloaded,
  type DownloadToFileOptions,
  RepoFs,
  RepoFsPool,
} from "../mod.ts";
import { type Emulator, startEmulator } from "../emulator.ts";
import { filesBelow, patterned, until } from "./support.ts";
import { interruptedGetLeft } from "./interrupted_get.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const MiB = 1024 * 1024;
const PARTIAL = ".big.bin.repo-fs-partial-resume";
const RECORD = `${PARTIAL}.json`;
const decoder = new TextDecoder();
const slow = {
  rules: [{
    route: "content" as const,
    trickle: { bytes: 256 * 1024, everyMs: 5 },
    times: Infinity,
  }],
};

/** Starts a resumable download of big.bin and aborts it once `stopAt` bytes were written. */
async function interrupted(
  source: RepoFs | RepoFsPool,
  target: string,
  stopAt: number,
  keeping: DownloadToFileOptions = { resume: true },
): Promise<void> {
  const controller = new AbortController();
  let written = 0;
  await rejects(
    source.downloadToFile("big.bin", target, {
      ...keeping,
      signal: controller.signal,
      onBytes: (n) => {
        written += n;
        if (written >= stopAt) controller.abort(new Error("interrupted"));
      },
    }),
    /interrupted/,
  );
}

async function sizeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).size;
}

for (const kind of ["RepoFs", "RepoFsPool"] as const) {
  Deno.test(`downloadToFile resume (${kind}): the interrupted bytes are kept and only the rest is fetched, then verified`, async () => {
    const content = patterned(16 * MiB, 1);
    await using emu = await startEmulator({
      files: { "big.bin": content },
      faults: slow,
    });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    await using pool = new RepoFsPool(fs, { workers: 1 });
    const source = kind === "RepoFs" ? fs : pool;
    const tmp = await Deno.makeTempDir();
    try {
      const target = join(tmp, "big.bin");
      await interrupted(source, target, 10 * MiB);
      deepStrictEqual((await filesBelow(tmp)).sort(), [PARTIAL, RECORD]);
      const kept = await sizeOf(join(tmp, PARTIAL));
      ok(kept >= 10 * MiB && kept < 16 * MiB, `${kept} kept`);
      const record = JSON.parse(await Deno.readTextFile(join(tmp, RECORD)));
      equal(record.size, content.byteLength);
      equal(record.validators.etag, `"${md5(content)}"`);
      equal(record.checksum.value, md5(content));

      emu.faults.rules = [];
      emu.resetCounters();
      const asked: (string | null)[][] = [];
      emu.faults.respond = (request, info) => {
        if (info.route !== "content") return undefined;
        asked.push(["range", "if-range"].map((h) => request.headers.get(h)));
        return undefined;
      };
      const done: Downloaded = await source.downloadToFile("big.bin", target, {
        resume: true,
      });
      // The rest, asked for only if the object is still the recorded one.
      deepStrictEqual(asked, [[
        `bytes=${kept}-`,
        `"${md5(content)}"`,
      ]]);
      deepStrictEqual(done, { bytes: content.byteLength, verified: "md5" });
      ok(
        emu.counters.storeBytes <= content.byteLength - kept + MiB,
        `${emu.counters.storeBytes} bytes fetched for the ${
          content.byteLength - kept
        } missing`,
      );
      deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
      equal(md5(await Deno.readFile(target)), md5(content));
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  });
}

for (const kind of ["RepoFs", "RepoFsPool"] as const) {
  Deno.test(`downloadToFile keepIfAborted (${kind}): an abort keeps the bytes for a resume; it starts from byte 0, and a failure leaves nothing`, async () => {
    const content = patterned(8 * MiB, 12);
    await using emu = await startEmulator({
      files: { "big.bin": content },
      faults: slow,
    });
    const fs = new RepoFs({
      host: emu.host,
      pid: emu.pid,
      retry: { retries: 0 },
    });
    await using pool = new RepoFsPool(fs, { workers: 1 });
    const source = kind === "RepoFs" ? fs : pool;
    const keepIfAborted = { keepIfAborted: true };
    const tmp = await Deno.makeTempDir();
    try {
      const target = join(tmp, "big.bin");
      await interrupted(source, target, 2 * MiB, keepIfAborted);
      deepStrictEqual((await filesBelow(tmp)).sort(), [PARTIAL, RECORD]);

      // Cut after 1 MiB, no retry: a failure, which takes what was kept too.
      emu.faults.rules = [{ route: "content", cutAfter: MiB, times: Infinity }];
      const ranges: (string | null)[] = [];
      emu.faults.respond = (request, info) => {
        if (info.route === "content") ranges.push(request.headers.get("range"));
        return undefined;
      };
      await rejects(source.downloadToFile("big.bin", target, keepIfAborted));
      ok(
        ranges.length > 0 &&
          ranges.every((r) => r === null || /^bytes=0-/.test(r)),
        `${ranges}`,
      );
      deepStrictEqual(await filesBelow(tmp), []);

      emu.faults.rules = slow.rules;
      await interrupted(source, target, 3 * MiB, keepIfAborted);
      const kept = await sizeOf(join(tmp, PARTIAL));
      ok(kept >= 3 * MiB && kept < content.byteLength, `${kept} kept`);
      emu.faults.rules = [];
      emu.faults.respond = undefined;
      emu.resetCounters();
      const done = await source.downloadToFile("big.bin", target, {
        resume: true,
      });
      deepStrictEqual(done, { bytes: content.byteLength, verified: "md5" });
      equal(emu.counters.storeBytes, content.byteLength - kept);
      deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
      equal(md5(await Deno.readFile(target)), md5(content));
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  });
}

Deno.test("downloadToFile resume: the object replaced in between (another ETag, same listing) starts over: the new object, never a splice", async () => {
  const before = patterned(8 * MiB, 2);
  const after = patterned(8 * MiB, 3);
  await using emu = await startEmulator({
    // No checksum listed: only the validator tells the two objects apart.
    files: { "big.bin": { content: before, checksum: null } },
    faults: slow,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tmp = await Deno.makeTempDir();
  try {
    const target = join(tmp, "big.bin");
    await interrupted(fs, target, 4 * MiB);
    emu.faults.rules = [];
    emu.replaceContent("big.bin", after);
    const statuses: number[] = [];
    emu.faults.respond = async (_request, info) => {
      if (info.route !== "content") return undefined;
      const answer = await info.next();
      statuses.push(answer.status);
      return answer;
    };
    const done = await fs.downloadToFile("big.bin", target, { resume: true });
    deepStrictEqual(done, { bytes: after.byteLength, verified: "size" });
    // A 200 to the If-Range (the new object, whole) is refused; the download starts over.
    equal(statuses[0], 200);
    equal(md5(await Deno.readFile(target)), md5(after));
    deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("downloadToFile resume: the file listed anew (another checksum) starts over; a partial file without its record, or with wrong bytes, too", async () => {
  const before = patterned(8 * MiB, 4);
  const after = patterned(8 * MiB, 5);
  const tmp = await Deno.makeTempDir();
  const target = join(tmp, "big.bin");
  try {
    {
      await using emu = await startEmulator({
        files: { "big.bin": before },
        faults: slow,
      });
      await interrupted(
        new RepoFs({ host: emu.host, pid: emu.pid }),
        target,
        4 * MiB,
      );
    }
    await using emu = await startEmulator({ files: { "big.bin": after } });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    const done = await fs.downloadToFile("big.bin", target, { resume: true });
    deepStrictEqual(done, { bytes: after.byteLength, verified: "md5" });
    equal(md5(await Deno.readFile(target)), md5(after));
    equal(emu.counters.storeBytes, after.byteLength);
    deepStrictEqual(await filesBelow(tmp), ["big.bin"]);

    // A partial file alone: nothing says what it is of.
    await Deno.remove(target);
    await Deno.writeFile(join(tmp, PARTIAL), before.subarray(0, 3 * MiB));
    emu.resetCounters();
    await fs.downloadToFile("big.bin", target, { resume: true });
    equal(md5(await Deno.readFile(target)), md5(after));
    equal(emu.counters.storeBytes, after.byteLength);

    // Kept bytes that are not the object's (with a record that says they are): they fail the checksum, and it starts over.
    await Deno.remove(target);
    const controller = new AbortController();
    emu.faults.rules = slow.rules;
    await rejects(
      fs.downloadToFile("big.bin", target, {
        resume: true,
        signal: controller.signal,
        onBytes: () => controller.abort(new Error("interrupted")),
      }),
      /interrupted/,
    );
    emu.faults.rules = [];
    const kept = await sizeOf(join(tmp, PARTIAL));
    ok(kept > 0);
    await Deno.writeFile(join(tmp, PARTIAL), new Uint8Array(kept).fill(0xff));
    const again = await fs.downloadToFile("big.bin", target, { resume: true });
    equal(again.verified, "md5");
    equal(md5(await Deno.readFile(target)), md5(after));
    deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

/** `get` (`--resume` unless told) of the emulator's big.bin into `out`, as a child process. */
function getFile(
  emu: Emulator,
  out: string,
  resume = true,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      join(REPO, "cli.ts"),
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "big.bin",
      "--out",
      out,
      ...(resume ? ["--resume"] : []),
    ],
    env: { REPO_API_TOKEN: "", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

for (const first of ["get", "get --resume"]) {
  Deno.test({
    name:
      `${first} stopped by SIGINT at 60 % of a 200 MiB file, then get --resume, fetches only the rest (+ at most 1 MiB) and the checksum verifies`,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      const content = patterned(200 * MiB, 6);
      await using emu = await startEmulator({
        files: { "big.bin": content },
        faults: {
          // The body stalls at 75 %: the signal comes with the file unfinished.
          rules: [{
            route: "content",
            trickle: { bytes: MiB, everyMs: 10 },
            stallAfter: 150 * MiB,
            times: Infinity,
          }],
        },
      });
      const tmp = await Deno.makeTempDir();
      try {
        const out = join(tmp, "out");
        await interruptGet(emu, out, content.byteLength, 0.6, first === "get");
        const kept = await sizeOf(join(out, PARTIAL));
        ok(kept >= 0.6 * content.byteLength, `${kept} kept`);

        emu.faults.rules = [];
        emu.resetCounters();
        const second = await getFile(emu, out).output();
        equal(second.code, 0, decoder.decode(second.stderr));
        const missing = content.byteLength - kept;
        ok(
          emu.counters.storeBytes <= missing + MiB,
          `${emu.counters.storeBytes} bytes sent for the ${missing} missing`,
        );
        deepStrictEqual(await filesBelow(out), ["big.bin"]);
        equal(md5(await Deno.readFile(join(out, "big.bin"))), md5(content));
      } finally {
        await Deno.remove(tmp, { recursive: true });
      }
    },
  });
}

function md5(bytes: Uint8Array): string {
  return createHash("md5").update(bytes).digest("hex");
}

Deno.test("a plain download of the file removes what an interrupted resumable one kept", async () => {
  const content = patterned(4 * MiB, 7);
  await using emu = await startEmulator({
    files: { "big.bin": content },
    faults: slow,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tmp = await Deno.makeTempDir();
  try {
    const target = join(tmp, "big.bin");
    await interrupted(fs, target, MiB);
    deepStrictEqual((await filesBelow(tmp)).sort(), [PARTIAL, RECORD]);
    emu.faults.rules = [];
    await fs.downloadToFile("big.bin", target);
    deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("an ingested tabular file, served longer than listed, is never resumed: it starts over whole", async () => {
  const content = new TextEncoder().encode(
    "a\tb\n" + "1\t2\n".repeat(1_000_000),
  );
  await using emu = await startEmulator({
    files: {
      "big.bin": {
        content,
        tabular: true,
        listedSize: content.byteLength - 1000,
      },
    },
    faults: slow,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tmp = await Deno.makeTempDir();
  try {
    const target = join(tmp, "big.bin");
    await interrupted(fs, target, content.byteLength - 1000);
    emu.faults.rules = [];
    emu.resetCounters();
    await fs.downloadToFile("big.bin", target, { resume: true });
    deepStrictEqual(await Deno.readFile(target), content);
    equal(emu.counters.storeBytes, content.byteLength);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

/**
 * Runs `get --resume` (a plain `get` with `plain`) of big.bin into `out`
 * and stops it with SIGINT once `fraction` of `size` is on disk: the bytes
 * are kept, hidden, and its last line names them.
 */
async function interruptGet(
  emu: Emulator,
  out: string,
  size: number,
  fraction: number,
  plain = false,
): Promise<void> {
  const child = getFile(emu, out, !plain);
  await until(
    async () =>
      ((await Deno.stat(join(out, PARTIAL)).catch(() => null))?.size ?? 0) >=
        fraction * size,
    `${fraction * 100} % of the file on disk`,
  );
  child.kill("SIGINT");
  const stopped = await child.output();
  const stderr = decoder.decode(stopped.stderr);
  equal(stopped.code, 130, stderr);
  // Nothing complete to compare: only the count of selected files matters.
  const selected = { "big.bin": new Uint8Array() };
  const { kept } = await interruptedGetLeft(out, selected, stderr);
  deepStrictEqual(kept, [PARTIAL]);
}

for (const first of ["get", "get --resume"]) {
  Deno.test({
    name:
      `${first} stopped by SIGINT, then get --resume with the object replaced in between, gives the new object, verified, never a splice`,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      const before = patterned(32 * MiB, 8);
      const after = patterned(32 * MiB, 9);
      const trickle = {
        rules: [{
          route: "content" as const,
          trickle: { bytes: 256 * 1024, everyMs: 10 },
          stallAfter: 24 * MiB,
          times: Infinity,
        }],
      };
      const tmp = await Deno.makeTempDir();
      try {
        // Listed anew with the new object's checksum: the record no longer matches.
        const out = join(tmp, "listed");
        {
          await using emu = await startEmulator({
            files: { "big.bin": before },
            faults: trickle,
          });
          await interruptGet(emu, out, before.byteLength, 0.5, first === "get");
        }
        {
          await using emu = await startEmulator({
            files: { "big.bin": after },
          });
          const run = await getFile(emu, out).output();
          equal(run.code, 0, decoder.decode(run.stderr));
          equal(md5(await Deno.readFile(join(out, "big.bin"))), md5(after));
          deepStrictEqual(await filesBelow(out), ["big.bin"]);
        }
        // The same listing (no checksum, same size), another object in the store: its ETag tells.
        const same = join(tmp, "same");
        await using emu = await startEmulator({
          files: { "big.bin": { content: before, checksum: null } },
          faults: trickle,
        });
        await interruptGet(emu, same, before.byteLength, 0.5, first === "get");
        emu.faults.rules = [];
        emu.replaceContent("big.bin", after);
        const run = await getFile(emu, same).output();
        equal(run.code, 0, decoder.decode(run.stderr));
        equal(md5(await Deno.readFile(join(same, "big.bin"))), md5(after));
        deepStrictEqual(await filesBelow(same), ["big.bin"]);
      } finally {
        await Deno.remove(tmp, { recursive: true });
      }
    },
  });
}

Deno.test("while another download holds the kept bytes, a resumable one downloads on its own and leaves them alone", async () => {
  const content = patterned(8 * MiB, 10);
  await using emu = await startEmulator({
    files: { "big.bin": { content, checksum: null } },
    faults: slow,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tmp = await Deno.makeTempDir();
  try {
    const target = join(tmp, "big.bin");
    await interrupted(fs, target, 2 * MiB);
    const kept = await Deno.readFile(join(tmp, PARTIAL));
    emu.faults.rules = [];
    // A live holder: this process, just now.
    const lock = join(tmp, `${PARTIAL}.lock`);
    await Deno.writeTextFile(
      lock,
      JSON.stringify({
        pid: Deno.pid,
        // Without --allow-sys the lock's owner is judged by its age alone.
        host: Deno.permissions.querySync({ name: "sys", kind: "hostname" })
            .state === "granted"
          ? Deno.hostname()
          : undefined,
      }),
    );
    emu.resetCounters();
    await fs.downloadToFile("big.bin", target, { resume: true });
    equal(emu.counters.storeBytes, content.byteLength);
    equal(md5(await Deno.readFile(target)), md5(content));
    deepStrictEqual(await Deno.readFile(join(tmp, PARTIAL)), kept);
    deepStrictEqual((await filesBelow(tmp)).sort(), [
      PARTIAL,
      RECORD,
      `${PARTIAL}.lock`,
      "big.bin",
    ]);

    // Released: the next one goes on from the kept bytes.
    await Deno.remove(lock);
    await Deno.remove(target);
    emu.resetCounters();
    await fs.downloadToFile("big.bin", target, { resume: true });
    equal(emu.counters.storeBytes, content.byteLength - kept.byteLength);
    equal(md5(await Deno.readFile(target)), md5(content));
    deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("two resumable downloads of one file at once both end with the file, never interleaved", async () => {
  const content = patterned(16 * MiB, 11);
  await using emu = await startEmulator({
    // Only the size is listed: interleaved bytes would pass it.
    files: { "big.bin": { content, checksum: null } },
    faults: slow,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const tmp = await Deno.makeTempDir();
  try {
    const target = join(tmp, "big.bin");
    await interrupted(fs, target, 4 * MiB);
    const results = await Promise.all([
      fs.downloadToFile("big.bin", target, { resume: true }),
      pool.downloadToFile("big.bin", target, { resume: true }),
      pool.downloadToFile("big.bin", target, { resume: true }),
    ]);
    for (const result of results) equal(result.verified, "size");
    equal(md5(await Deno.readFile(target)), md5(content));
    deepStrictEqual(await filesBelow(tmp), ["big.bin"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
