/**
 * Issue 28 item 8: `get --resume` never replaces a good file with an error
 * page. An answer shorter than the listed size is never the file, tabular or
 * not, whatever its Content-Type; a local file of the listed shape is kept
 * unless the new answer verifies.
 */
import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { type RequestInfo, startEmulator } from "../emulator.ts";
import { RepoFs, RepoProtocolError } from "../mod.ts";
import { filesBelow, patterned, runCli } from "./support.ts";

/** A 374-byte maintenance notice, as a proxy in front of a repository sends it. */
const MAINTENANCE =
  "Service Unavailable: this repository is down for maintenance. "
    .padEnd(373, "Please try again later. ") + "\n";

function tsv(rows: number): string {
  const lines = ["id\tname\tvalue"];
  for (let i = 0; i < rows; i++) lines.push(`${i}\tname${i}\t${i * 7}`);
  return `${lines.join("\n")}\n`;
}

const BIG_TAB = tsv(120); // listed shorter than served, as ingested files are
const SMALL_TAB = tsv(3); // shorter than the notice
const DATA = patterned(5000, 3);

const FILES = {
  "big.tab": {
    content: BIG_TAB,
    listedSize: BIG_TAB.length - 14,
    tabular: true,
    original: BIG_TAB.replaceAll("\t", ","), // the listed checksum's bytes
    contentType: "text/tab-separated-values",
  },
  "small.tab": {
    content: SMALL_TAB,
    listedSize: SMALL_TAB.length - 14,
    tabular: true,
    original: SMALL_TAB.replaceAll("\t", ","), // the listed checksum's bytes
    contentType: "text/tab-separated-values",
  },
  "data.bin": DATA,
};

/** The maintenance notice as every content answer, said long or not. */
function maintenance(said: boolean) {
  return (_request: Request, info: RequestInfo) => {
    if (info.route !== "content") return undefined;
    const bytes = new TextEncoder().encode(MAINTENANCE);
    const body = said ? bytes : ReadableStream.from([bytes]);
    return new Response(body, {
      status: 200,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  };
}

async function setup() {
  const emu = await startEmulator({ files: FILES });
  const out = await Deno.makeTempDir();
  const get = (...args: string[]) =>
    runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "--retries",
      "2",
      "get",
      "**",
      "--out",
      out,
      ...args,
    ]);
  return {
    emu,
    out,
    get,
    /** Every file below --out, with its bytes. */
    async disk(): Promise<Record<string, Uint8Array>> {
      const paths = await filesBelow(out);
      return Object.fromEntries(
        await Promise.all(
          paths.map(async (p) => [p, await Deno.readFile(`${out}/${p}`)]),
        ),
      );
    },
    async [Symbol.asyncDispose]() {
      await emu.close();
      await Deno.remove(out, { recursive: true });
    },
  };
}

async function downloaded(t: { get: () => ReturnType<typeof runCli> }) {
  const first = await t.get();
  equal(first.code, 0, first.stderr);
}

const GOOD = {
  "big.tab": new TextEncoder().encode(BIG_TAB),
  "data.bin": DATA,
  "small.tab": new TextEncoder().encode(SMALL_TAB),
};

Deno.test("get --resume while the repository serves a short text/plain maintenance notice: the good files stay, exit 1, the message names the problem", async () => {
  for (const said of [true, false]) {
    const kind = said ? "with Content-Length" : "close-delimited";
    await using t = await setup();
    await downloaded(t);
    deepStrictEqual(await t.disk(), GOOD);
    t.emu.faults.respond = maintenance(said);
    const run = await t.get("--resume");
    equal(run.code, 1, `${kind}: ${run.stderr}`);
    ok(
      run.stderr.includes(
        `failed "big.tab": the answer is for a file of 374 bytes, but the listing says ${
          FILES["big.tab"].listedSize
        } or more: it is not this file`,
      ),
      `${kind}: ${run.stderr}`,
    );
    ok(
      run.stderr.includes(
        `failed "small.tab": the answer (374 bytes) cannot be verified and differs from the file already there, which has the listed size: the existing file was kept`,
      ),
      `${kind}: ${run.stderr}`,
    );
    ok(!run.stderr.includes("data.bin"), "data.bin was complete: skipped");
    deepStrictEqual(await t.disk(), GOOD, `${kind}: byte-identical`);
  }
});

Deno.test("get --resume of a dataset unchanged keeps tabular files that are the same, and replaces a corrupt file only with one that verifies", async () => {
  await using t = await setup();
  await downloaded(t);
  const corrupt = DATA.slice();
  corrupt[100] ^= 1;
  await Deno.writeFile(`${t.out}/data.bin`, corrupt);
  const run = await t.get("--resume", "--json");
  equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  equal(summary.skipped, 2, "the two tabular files, the same bytes again");
  equal(summary.downloaded, 1, "data.bin, whose MD5 did not match");
  deepStrictEqual(await t.disk(), GOOD);
});

Deno.test("a short answer of a tabular file is an error whatever its Content-Type, through the library too", async () => {
  await using t = await setup();
  const fs = new RepoFs({ host: t.emu.host, pid: t.emu.pid });
  for (const type of ["text/plain", "application/octet-stream"]) {
    t.emu.faults.respond = (_request, info) =>
      info.route === "content"
        ? new Response(MAINTENANCE, { headers: { "content-type": type } })
        : undefined;
    for (const range of [{}, { start: 0, end: 10 }, { start: 100 }]) {
      await rejects(fs.catFile("big.tab", range), (e: unknown) => {
        ok(e instanceof RepoProtocolError, `${type}: ${e}`);
        ok(
          /374 bytes, but the listing says \d+ or more/.test(e.message),
          e.message,
        );
        return true;
      });
    }
  }
  t.emu.faults.respond = undefined;
  equal(new TextDecoder().decode(await fs.catFile("big.tab")), BIG_TAB);
});
