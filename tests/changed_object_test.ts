/**
 * Issue 28 item 6: an object replaced under a read is a RepoChangedError or
 * the right bytes, never bytes spliced from two versions: between two reads
 * of one open() handle, and in the middle of one resumed read, with and
 * without an ETag on the first answer.
 */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { RepoChangedError, RepoFs } from "../mod.ts";
import { type Emulator, type RequestInfo, startEmulator } from "../emulator.ts";
import { collect } from "../src/content/content.ts";
import { filesBelow, patterned, runCli } from "./support.ts";

const SIZE = 100_000;
const CUT = 30_000;
const BEFORE = patterned(SIZE, 1);
const AFTER = patterned(SIZE, 2); // the same size: only validators tell

async function setup() {
  const emu = await startEmulator({ files: { "f.bin": BEFORE } });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  return { emu, fs, [Symbol.asyncDispose]: () => emu.close() };
}

/** `response` with its `ETag` removed, and other headers set. */
function reheaded(
  response: Response,
  set: Record<string, string | null>,
): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(set)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, headers });
}

/**
 * `response` whose body stops after `keep` bytes while its Content-Length
 * says more: the server drops the connection there.
 */
function cut(response: Response, keep: number): Response {
  const reader = response.body!.getReader();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done || sent >= keep) {
        await reader.cancel();
        return controller.close();
      }
      const piece = value.slice(0, keep - sent);
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
    cancel: () => reader.cancel(),
  });
  return new Response(body, {
    status: response.status,
    headers: response.headers,
  });
}

/** What the first content answer of a case carries. */
const FIRST_ANSWERS = [
  { kind: "with an ETag", strip: {} },
  { kind: "without an ETag", strip: { etag: null } },
] as const;

/** Records the conditional headers of every content request. */
function conditionsOf(request: Request): string {
  return ["if-match", "if-unmodified-since", "if-range"]
    .map((name) => request.headers.get(name))
    .filter((value) => value !== null).join(" ");
}

Deno.test("the object changes between two reads of one handle: RepoChangedError, never the new bytes", async () => {
  for (const { kind, strip } of FIRST_ANSWERS) {
    await using t = await setup();
    const sent: string[] = [];
    t.emu.faults.respond = async (request: Request, info: RequestInfo) => {
      if (info.route !== "content") return undefined;
      sent.push(conditionsOf(request));
      const answer = await info.next();
      return info.attempt === 1 ? reheaded(answer, strip) : answer;
    };
    const file = await t.fs.open("f.bin");
    deepStrictEqual(await file.read(0, 1000), BEFORE.subarray(0, 1000));
    t.emu.replaceContent("f.bin", AFTER);
    await rejects(file.read(1000, 2000), (e: unknown) => {
      ok(e instanceof RepoChangedError, `${kind}: ${e}`);
      ok(/^the file changed during the read \(/.test(e.message), e.message);
      return true;
    });
    await rejects(collect(file.stream()), RepoChangedError, kind);
    if (kind === "with an ETag") {
      ok(sent[1].startsWith('"'), `${kind}: If-Match sent: ${sent}`);
    }
    // A new handle is of the new object.
    const fresh = await t.fs.open("f.bin");
    deepStrictEqual(await fresh.read(1000, 2000), AFTER.subarray(1000, 2000));
    deepStrictEqual(await fresh.read(5000, 5010), AFTER.subarray(5000, 5010));
  }
});

Deno.test("an unchanged object reads on through one handle, the first ETag sent as If-Match", async () => {
  await using t = await setup();
  const sent: string[] = [];
  t.emu.faults.respond = (request: Request, info: RequestInfo) => {
    if (info.route === "content") sent.push(conditionsOf(request));
    return undefined;
  };
  const file = await t.fs.open("f.bin");
  deepStrictEqual(await file.read(0, 10), BEFORE.subarray(0, 10));
  deepStrictEqual(await file.read(-10), BEFORE.subarray(-10));
  deepStrictEqual(await collect(file.stream()), BEFORE);
  equal(sent[0], "", "the first request has no condition");
  ok(
    sent.length === 3 && sent.slice(1).every((s) => /^"[0-9a-f]{32}"$/.test(s)),
    `${sent}`,
  );
});

/** Reads `f.bin` whole through each surface, in turn. */
const SURFACES = [
  { name: "catFile", read: (fs: RepoFs) => fs.catFile("f.bin") },
  {
    name: "open().stream()",
    read: async (fs: RepoFs) => collect((await fs.open("f.bin")).stream()),
  },
  {
    name: "open().read()",
    read: async (fs: RepoFs) => (await fs.open("f.bin")).read(),
  },
] as const;

/**
 * Cuts the first content answer after {@linkcode CUT} bytes (so that the
 * read resumes), with its headers changed as `strip` says; `change` runs
 * between the first answer and the resume.
 */
function cutFirst(
  emu: Emulator,
  strip: Record<string, string | null>,
  change: () => void,
  sent: string[] = [],
) {
  emu.faults.respond = async (request: Request, info: RequestInfo) => {
    if (info.route !== "content") return undefined;
    sent.push(conditionsOf(request));
    const answer = await info.next();
    if (info.attempt !== 1) return answer;
    change();
    return cut(reheaded(answer, strip), CUT);
  };
}

Deno.test("the object changes in the middle of one resumed read: RepoChangedError, never a splice", async () => {
  for (const { kind, strip } of FIRST_ANSWERS) {
    for (const { name, read } of SURFACES) {
      const what = `${name}, first answer ${kind}`;
      await using t = await setup();
      const sent: string[] = [];
      cutFirst(t.emu, strip, () => t.emu.replaceContent("f.bin", AFTER), sent);
      await rejects(read(t.fs), (e: unknown) => {
        ok(e instanceof RepoChangedError, `${what}: ${e}`);
        ok(
          kind === "with an ETag"
            ? /\(412 Precondition Failed to If-Match: "[0-9a-f]{32}"\)/.test(
              e.message,
            )
            : /\(the first answer had no ETag, a later one "[0-9a-f]{32}"\)/
              .test(e.message),
          `${what}: ${e.message}`,
        );
        return true;
      });
      equal(sent.length, 2, `${what}: one resume, not retried: ${sent}`);
    }
  }
});

Deno.test("a stream of an object replaced mid-read gives only old bytes, then the error", async () => {
  for (const { kind, strip } of FIRST_ANSWERS) {
    await using t = await setup();
    cutFirst(t.emu, strip, () => t.emu.replaceContent("f.bin", AFTER));
    const received: Uint8Array[] = [];
    const reading = (async () => {
      for await (const chunk of (await t.fs.open("f.bin")).stream()) {
        received.push(chunk);
      }
    })();
    await rejects(reading, RepoChangedError, kind);
    const got = await collect(ReadableStream.from(received));
    ok(got.byteLength <= CUT, `${kind}: ${got.byteLength} bytes`);
    deepStrictEqual(got, BEFORE.subarray(0, got.byteLength), kind);
  }
});

Deno.test("a resumed read of an unchanged object gives the right bytes", async () => {
  await using t = await setup();
  const sent: string[] = [];
  cutFirst(t.emu, {}, () => {}, sent);
  deepStrictEqual(await t.fs.catFile("f.bin"), BEFORE);
  deepStrictEqual(sent.length, 2);
  ok(/^"[0-9a-f]{32}"$/.test(sent[1]), `If-Match on the resume: ${sent}`);
});

Deno.test("Last-Modified tells objects apart where no ETag is sent, and is sent as If-Unmodified-Since", async () => {
  await using t = await setup();
  let version = "Mon, 02 Nov 2026 10:00:00 GMT";
  const sent: string[] = [];
  t.emu.faults.respond = async (request: Request, info: RequestInfo) => {
    if (info.route !== "content") return undefined;
    sent.push(conditionsOf(request));
    const answer = reheaded(await info.next(), {
      etag: null,
      "last-modified": version,
    });
    if (info.attempt !== 1) return answer;
    t.emu.replaceContent("f.bin", AFTER);
    version = "Mon, 02 Nov 2026 10:00:01 GMT";
    return cut(answer, CUT);
  };
  await rejects(t.fs.catFile("f.bin"), (e: unknown) => {
    ok(e instanceof RepoChangedError, String(e));
    ok(
      e.message.includes(
        "(Last-Modified Mon, 02 Nov 2026 10:00:00 GMT, then Mon, 02 Nov 2026 10:00:01 GMT)",
      ),
      e.message,
    );
    return true;
  });
  deepStrictEqual(sent, ["", "Mon, 02 Nov 2026 10:00:00 GMT"]);
});

Deno.test("get starts a file that changed in the middle of its download over once, and keeps only the new object", async () => {
  // No checksum listed: the size alone verifies the new object.
  await using emu = await startEmulator({
    files: { "f.bin": { content: BEFORE, md5: null } },
  });
  let gets = 0;
  cutFirst(emu, {}, () => emu.replaceContent("f.bin", AFTER));
  const counting = emu.faults.respond!;
  emu.faults.respond = (request, info) => {
    if (info.route === "content") gets++;
    return counting(request, info);
  };
  const out = await Deno.makeTempDir();
  try {
    const run = await runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "f.bin",
      "--out",
      out,
    ]);
    equal(run.code, 0, run.stderr);
    deepStrictEqual(await filesBelow(out), ["f.bin"]);
    deepStrictEqual(await Deno.readFile(`${out}/f.bin`), AFTER);
    equal(gets, 3, "cut, refused (412), then the new object whole");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("get starts a changed file over only once: changed again, it fails naming the change and keeps nothing", async () => {
  await using emu = await startEmulator({
    files: { "f.bin": { content: BEFORE, md5: null } },
  });
  emu.faults.respond = async (_request, info) => {
    if (info.route !== "content") return undefined;
    const answer = await info.next();
    if (info.attempt % 2 === 0) return answer;
    emu.replaceContent("f.bin", info.attempt % 4 === 1 ? AFTER : BEFORE);
    return cut(answer, CUT);
  };
  const out = await Deno.makeTempDir();
  try {
    const run = await runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "f.bin",
      "--out",
      out,
    ]);
    equal(run.code, 1, run.stderr);
    ok(
      /failed "f\.bin": the file changed during the read \(412 Precondition Failed/
        .test(run.stderr),
      run.stderr,
    );
    deepStrictEqual(await filesBelow(out), []);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("the emulator's store honours If-Match (412 for another object) and If-Range (the whole file for another object), as S3 does", async () => {
  await using t = await setup();
  const url = await t.fs.resolveDownloadUrl(t.emu.fileId("f.bin"));
  const head = await fetch(url, { headers: { range: "bytes=0-0" } });
  await head.body?.cancel();
  const etag = head.headers.get("etag")!;
  const status = async (headers: Record<string, string>) => {
    const answer = await fetch(url, { headers });
    await answer.body?.cancel();
    return answer.status;
  };
  const range = { range: "bytes=10-19" };
  equal(await status({ ...range, "if-match": etag }), 206);
  equal(await status({ ...range, "if-match": '"other"' }), 412);
  equal(await status({ ...range, "if-match": `"other", ${etag}` }), 206);
  equal(await status({ ...range, "if-range": etag }), 206);
  equal(await status({ ...range, "if-range": '"other"' }), 200);
  t.emu.replaceContent("f.bin", AFTER);
  equal(await status({ ...range, "if-match": etag }), 412);
  equal(await status({ ...range, "if-range": etag }), 200);
});
