/**
 * Issue 28 item 6 on a pool: the reads of one `RepoFsPool.open()` handle,
 * and the windows of its stream, run as separate jobs in the workers, yet
 * all are held to the object of the handle's first answer: an object
 * replaced in between is a RepoChangedError, never bytes of two versions.
 */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { RepoChangedError, RepoFs, RepoFsPool } from "../mod.ts";
import { type Emulator, type RequestInfo, startEmulator } from "../emulator.ts";
import { collect } from "../src/content/content.ts";
import { STREAM_WINDOW } from "../src/pool/pool_file.ts";
import { reshaped } from "./emulator_faults.ts";
import { patterned } from "./support.ts";

const BEFORE = patterned(100_000, 1);
const AFTER = patterned(100_000, 2); // the same size: only validators tell
/** More than two stream windows. */
const BIG_BEFORE = patterned(2 * STREAM_WINDOW + 1000, 3);
const BIG_AFTER = patterned(2 * STREAM_WINDOW + 1000, 4);

async function setup() {
  const emu = await startEmulator({
    files: { "f.bin": BEFORE, "big.bin": BIG_BEFORE, "other.bin": "other" },
  });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const pool = new RepoFsPool(fs, { workers: 2 });
  return {
    emu,
    pool,
    [Symbol.asyncDispose]: async () => {
      await pool.close();
      await emu.close();
    },
  };
}

/** What the first content answer of a case carries. */
const FIRST_ANSWERS = [
  {
    kind: "with an ETag",
    strip: {},
    changed: /\(412 Precondition Failed to If-Match: "[0-9a-f]{32}"\)/,
  },
  {
    kind: "without an ETag",
    strip: { etag: null },
    changed: /\(the first answer had no ETag, a later one "[0-9a-f]{32}"\)/,
  },
] as const;

/** The conditional headers of a request, as `name: value` lines. */
function conditionsOf(request: Request): string[] {
  return ["if-match", "if-unmodified-since"].flatMap((name) => {
    const value = request.headers.get(name);
    return value === null ? [] : [`${name}: ${value}`];
  });
}

/**
 * Records the conditions of the content requests of `path`, strips the
 * first answer as `strip` says, and runs `before(attempt)` as each request
 * arrives, before the emulator answers it.
 */
function staged(
  emu: Emulator,
  path: string,
  strip: Record<string, string | null>,
  before: (attempt: number) => void = () => {},
): string[][] {
  const sent: string[][] = [];
  emu.faults.respond = async (request: Request, info: RequestInfo) => {
    if (info.route !== "content" || info.fileId !== emu.fileId(path)) {
      return undefined;
    }
    sent.push(conditionsOf(request));
    before(info.attempt);
    const answer = await info.next();
    return info.attempt === 1 ? await reshaped(answer, strip) : answer;
  };
  return sent;
}

/**
 * Keeps worker 0 busy with a read that waits until disposed, so that the
 * pool sends its next job to worker 1.
 */
function busyFirstWorker(t: { emu: Emulator; pool: RepoFsPool }) {
  const { promise, resolve } = Promise.withResolvers<void>();
  const respond = t.emu.faults.respond!;
  t.emu.faults.respond = async (request, info) => {
    if (info.fileId === t.emu.fileId("other.bin")) await promise;
    return respond(request, info);
  };
  const reading = t.pool.catFile("other.bin");
  return {
    [Symbol.asyncDispose]: async () => {
      resolve();
      equal(new TextDecoder().decode(await reading), "other");
    },
  };
}

Deno.test("a pool handle whose object changes between two reads: RepoChangedError on the second, in another worker", async () => {
  for (const { kind, strip, changed } of FIRST_ANSWERS) {
    await using t = await setup();
    const sent = staged(t.emu, "f.bin", strip);
    const file = await t.pool.open("f.bin");
    deepStrictEqual(await file.read(0, 1000), BEFORE.subarray(0, 1000));
    t.emu.replaceContent("f.bin", AFTER);
    {
      await using _busy = busyFirstWorker(t);
      await rejects(file.read(1000, 2000), (e: unknown) => {
        ok(e instanceof RepoChangedError, `${kind}: ${e}`);
        ok(changed.test(e.message), `${kind}: ${e.message}`);
        return true;
      });
    }
    await rejects(collect(file.stream()), RepoChangedError, kind);
    equal(sent[0].length, 0, `${kind}: the first request has no condition`);
    if (kind === "with an ETag") {
      ok(/^if-match: "[0-9a-f]{32}"$/.test(`${sent[1]}`), `${kind}: ${sent}`);
    }
    const fresh = await t.pool.open("f.bin");
    deepStrictEqual(await fresh.read(1000, 2000), AFTER.subarray(1000, 2000));
  }
});

Deno.test("a pool handle tells objects apart by Last-Modified where no ETag is sent, and sends it as If-Unmodified-Since", async () => {
  await using t = await setup();
  let version = "Mon, 02 Nov 2026 10:00:00 GMT";
  const sent: string[][] = [];
  t.emu.faults.respond = async (request: Request, info: RequestInfo) => {
    if (info.route !== "content") return undefined;
    sent.push(conditionsOf(request));
    return await reshaped(await info.next(), {
      etag: null,
      "last-modified": version,
    });
  };
  const file = await t.pool.open("f.bin");
  deepStrictEqual(await file.read(0, 10), BEFORE.subarray(0, 10));
  deepStrictEqual(await file.read(10, 20), BEFORE.subarray(10, 20));
  t.emu.replaceContent("f.bin", AFTER);
  version = "Mon, 02 Nov 2026 10:00:01 GMT";
  await rejects(file.read(20, 30), (e: unknown) => {
    ok(e instanceof RepoChangedError, String(e));
    ok(
      e.message.includes(
        "(Last-Modified Mon, 02 Nov 2026 10:00:00 GMT, then Mon, 02 Nov 2026 10:00:01 GMT)",
      ),
      e.message,
    );
    return true;
  });
  const condition = "if-unmodified-since: Mon, 02 Nov 2026 10:00:00 GMT";
  deepStrictEqual(sent, [[], [condition], [condition]]);
});

Deno.test("a pool stream whose object changes between two windows: the first window's old bytes, then RepoChangedError", async () => {
  for (const { kind, strip, changed } of FIRST_ANSWERS) {
    await using t = await setup();
    staged(t.emu, "big.bin", strip, (attempt) => {
      if (attempt === 2) t.emu.replaceContent("big.bin", BIG_AFTER);
    });
    const received: Uint8Array[] = [];
    const reading = (async () => {
      for await (const chunk of (await t.pool.open("big.bin")).stream()) {
        received.push(chunk);
      }
    })();
    await rejects(reading, (e: unknown) => {
      ok(e instanceof RepoChangedError, `${kind}: ${e}`);
      ok(changed.test(e.message), `${kind}: ${e.message}`);
      return true;
    });
    const got = await collect(ReadableStream.from(received));
    equal(got.byteLength, STREAM_WINDOW, kind);
    deepStrictEqual(got, BIG_BEFORE.subarray(0, STREAM_WINDOW), kind);
  }
});

Deno.test("an unchanged object reads on through a pool handle, its reads and windows held to the first answer's validators", async () => {
  const cases: {
    kind: string;
    headers: Record<string, string | null>;
    condition: RegExp;
  }[] = [
    { kind: "ETag", headers: {}, condition: /^if-match: "[0-9a-f]{32}"$/ },
    {
      kind: "Last-Modified only",
      headers: { etag: null, "last-modified": "Mon, 02 Nov 2026 10:00:00 GMT" },
      condition: /^if-unmodified-since: Mon, 02 Nov 2026 10:00:00 GMT$/,
    },
    { kind: "no validator", headers: { etag: null }, condition: /^$/ },
  ];
  for (const { kind, headers, condition } of cases) {
    await using t = await setup();
    const sent: string[][] = [];
    t.emu.faults.respond = async (request: Request, info: RequestInfo) => {
      if (info.fileId !== t.emu.fileId("big.bin")) return undefined;
      if (info.route !== "content") return undefined;
      sent.push(conditionsOf(request));
      return await reshaped(await info.next(), headers);
    };
    const file = await t.pool.open("big.bin");
    deepStrictEqual(await file.read(0, 10), BIG_BEFORE.subarray(0, 10), kind);
    {
      await using _busy = busyFirstWorker(t);
      deepStrictEqual(await file.read(-10), BIG_BEFORE.subarray(-10), kind);
    }
    deepStrictEqual(await collect(file.stream()), BIG_BEFORE, kind);
    equal(sent.length, 5, `${kind}: two reads and three windows: ${sent}`);
    equal(sent[0].length, 0, `${kind}: the first request has no condition`);
    for (const later of sent.slice(1)) {
      ok(condition.test(`${later}`), `${kind}: ${later}`);
    }
  }
});
