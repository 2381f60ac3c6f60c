/**
 * Issue 28 item 10, last bullet: a body that says no Content-Length and ends
 * short of the size known (a close-delimited body whose connection broke)
 * is resumed like any other drop; only an answer that ends at the same
 * short byte again is judged not to be the file.
 */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { RepoFs, RepoProtocolError } from "../mod.ts";
import { type RequestInfo, startEmulator } from "../emulator.ts";
import { collect } from "../src/content/content.ts";
import { patterned } from "./support.ts";
import { withHeaders } from "./emulator_faults.ts";

const SIZE = 100_000;
const CONTENT = patterned(SIZE, 5);

/**
 * The emulator's own 200, its `ETag` kept, made one of unsaid length that
 * holds the first `keep` bytes of the file.
 */
async function endingAt(
  info: RequestInfo,
  keep: number,
  request?: Request,
): Promise<Response> {
  const own = await info.next(request);
  await own.body?.cancel();
  const headers = new Headers(own.headers);
  headers.delete("content-length");
  return new Response(ReadableStream.from([CONTENT.slice(0, keep)]), {
    headers,
  });
}

async function setup(
  answer: (
    info: RequestInfo,
    request: Request,
  ) => Promise<Response> | undefined,
) {
  const emu = await startEmulator({ files: { "f.bin": CONTENT } });
  const ranges: (string | null)[] = [];
  emu.faults.respond = (request, info) => {
    if (info.route !== "content") return undefined;
    ranges.push(request.headers.get("range"));
    return answer(info, request);
  };
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  return { emu, fs, ranges, [Symbol.asyncDispose]: () => emu.close() };
}

Deno.test("a close-delimited body that ends short is resumed from its last byte", async () => {
  for (
    const [name, read] of [
      ["catFile", (fs: RepoFs) => fs.catFile("f.bin")],
      [
        "stream",
        async (fs: RepoFs) => collect((await fs.open("f.bin")).stream()),
      ],
    ] as const
  ) {
    await using t = await setup((info) =>
      info.attempt === 1 ? endingAt(info, 30_000) : undefined
    );
    deepStrictEqual(await read(t.fs), CONTENT, name);
    deepStrictEqual(t.ranges, [null, "bytes=30000-"], name);
  }
});

Deno.test("a range read whose whole-file answer ends short checks the rest of the length instead of judging it", async () => {
  await using t = await setup((info) =>
    info.attempt === 1 ? endingAt(info, 5000) : undefined
  );
  deepStrictEqual(
    await t.fs.catFile("f.bin", { start: 0, end: SIZE }),
    CONTENT,
  );
  deepStrictEqual(t.ranges, [null, "bytes=5000-"]);
  // 10 bytes asked, served whole, of unsaid length: its length is checked.
  await using u = await setup((info, request) => {
    const whole = withHeaders(request, { range: null });
    return info.attempt === 1 ? endingAt(info, 5000, whole) : info.next(whole);
  });
  deepStrictEqual(
    await u.fs.catFile("f.bin", { start: 0, end: 10 }),
    CONTENT.subarray(0, 10),
  );
  equal(u.ranges.length, 2, `the rest was read to check it: ${u.ranges}`);
  ok(u.ranges[1]!.startsWith("bytes=5000-"), `${u.ranges}`);
});

Deno.test("a close-delimited answer that ends at the same short byte twice is not the file, and says so", async () => {
  await using t = await setup((info) => endingAt(info, 374));
  await rejects(t.fs.catFile("f.bin"), (e: unknown) => {
    ok(e instanceof RepoProtocolError, String(e));
    ok(
      e.message.includes(
        `the answer is for a file of 374 bytes, but the listing says ${SIZE}: it is not this file`,
      ),
      e.message,
    );
    return true;
  });
  deepStrictEqual(t.ranges, [null, "bytes=374-"], "judged on the second");
});
