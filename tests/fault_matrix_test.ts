/**
 * Every fault a hostile or broken server can act out, against every read
 * surface: the right bytes or the named error, within a bound on time and
 * on requests, with the HEAD budget kept and the token never leaving the
 * repository or showing in an error.
 */
import { deepStrictEqual, equal, fail, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  RepoConnectionError,
  RepoFs,
  RepoFsPool,
  RepoHttpError,
  RepoProtocolError,
} from "../mod.ts";
import {
  type Emulator,
  type EmulatorFaults,
  startEmulator,
} from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { collect } from "../src/content/content.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { bounded, patterned } from "./support.ts";
import {
  ignoreRange,
  portalPage,
  rangeCap,
  redirects,
  shiftContentRange,
} from "./emulator_faults.ts";

const TOKEN = "matrix-token-0123456789";
const TIMEOUT_MS = 300;
const RETRY = { retries: 5, baseDelayMs: 5, maxDelayMs: 50 };
/** The CLI keeps its default backoff; enough retries for the 5xx burst. */
const CLI_RETRIES = 4;
const HEAD_CONCURRENCY = 3;

const DATA = patterned(256 * 1024 + 3, 5);
const RANGE = { start: 1000, end: 200_000 };
const GRID = ramp(Float64Array, 32 * 32, 0.5, -3);
const FILES = {
  "data.bin": DATA,
  "empty.bin": "",
  ...await buildZarrStore(
    [{ path: "grid", data: GRID, shape: [32, 32], chunks: [16, 16] }],
    { format: 2, prefix: "grid.zarr" },
  ),
};

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(REPO, "cli.ts");
const decoder = new TextDecoder();

type Outcome =
  | { kind: "bytes" }
  | { kind: "error"; name: string; message: RegExp };

interface Fault {
  name: string;
  faults?: Partial<EmulatorFaults>;
  /** What a surface gets; by default the right bytes. */
  expect?: (surface: Surface) => Outcome;
  /** Most store GETs one surface may send. */
  maxStoreGets?: number;
}

interface Surface {
  name: string;
  /** Whether it reads with a Range (a whole-file read sends none). */
  ranged: boolean;
  /** Reads through the surface; rejects as the surface does. */
  read(emu: Emulator): Promise<void>;
}

const bytes: Outcome = { kind: "bytes" };
const protocol = (message: RegExp): Outcome => ({
  kind: "error",
  name: "RepoProtocolError",
  message,
});
const connection = (message: RegExp): Outcome => ({
  kind: "error",
  name: "RepoConnectionError",
  message,
});

const FAULTS: Fault[] = [
  {
    name: "a redirect to a file: URL",
    faults: { rules: [redirects(303, "file:///etc/passwd")] },
    expect: () => protocol(/"file:"/),
    maxStoreGets: 0,
  },
  {
    name: "a redirect to a data: URL",
    faults: { rules: [redirects(303, "data:,hello")] },
    expect: () => protocol(/"data:"/),
    maxStoreGets: 0,
  },
  {
    name: "a garbage Location",
    faults: { rules: [redirects(303, "::not a url")] },
    expect: () => protocol(/not an absolute URL/),
    maxStoreGets: 0,
  },
  {
    name: "a 303 without Location",
    faults: { rules: [redirects(303, null)] },
    expect: () => protocol(/without a Location header/),
    maxStoreGets: 0,
  },
  {
    name: "an 18-byte HTML page answered 200 for every read",
    faults: { rules: [portalPage(10_000)] },
    expect: () => protocol(/listing says/),
  },
  {
    name: "an HTML page answered 200 to every Range, the page ignoring it",
    faults: { rules: [portalPage(10_000)], respond: ignoreRange() },
    expect: () => protocol(/listing says/),
  },
  {
    name: "a body that stalls halfway",
    faults: { rules: [{ route: "content", stallAfter: "half" }] },
  },
  {
    name: "a body that trickles",
    faults: {
      rules: [{
        route: "content",
        trickle: { bytes: 32 * 1024, everyMs: 15 },
        times: Infinity,
      }],
    },
  },
  {
    name: "a 401 that echoes the token",
    faults: {
      rules: [{
        route: "repo",
        status: 401,
        times: 10_000,
        message: (request) =>
          `Bad API key ${request.headers.get("X-Repo-key")}`,
        pathIncludes: "/access/",
      }],
    },
    expect: () => ({
      kind: "error",
      name: "RepoHttpError",
      message: /HTTP 401 .*Bad API key \*\*\*/,
    }),
    maxStoreGets: 0,
  },
  {
    name: "HEADs that stall",
    faults: {
      rules: [{ route: "head", delayMs: 3_600_000, times: Infinity }],
    },
    expect: () => connection(/nothing received for \d+ ms/),
    maxStoreGets: 0,
  },
  {
    name: "a stall before any header",
    faults: { latencyMs: 3_600_000 },
    expect: () => connection(/nothing received for \d+ ms/),
    maxStoreGets: 0,
  },
  {
    name: "connection resets",
    faults: { rules: [{ route: "content", cutAfter: 0, times: 2 }] },
  },
  {
    name: "truncated bodies",
    faults: { rules: [{ route: "content", cutAfter: "half", times: 2 }] },
  },
  {
    name: "a 429 burst without Retry-After",
    faults: { rules: [{ route: "content", status: 429, times: 2 }] },
  },
  {
    name: "a 429 with Retry-After",
    faults: {
      rules: [{
        route: "content",
        status: 429,
        headers: { "retry-after": "1" },
      }],
    },
  },
  {
    name: "a 500/502/503/504 burst",
    faults: {
      rules: [500, 502, 503, 504].map((status) => ({
        route: "content" as const,
        status,
      })),
    },
  },
  {
    name: "an expired URL (403 from the store)",
    faults: { rules: [{ route: "store", status: 403 }] },
  },
  { name: "200 answered to a Range", faults: { respond: ignoreRange() } },
  {
    name: "a store that caps ranges",
    faults: { respond: rangeCap(50_000) },
  },
  {
    name: "a wrong Content-Range",
    faults: { respond: shiftContentRange(10_000) },
    expect: (surface) => surface.ranged ? protocol(/Content-Range/) : bytes,
  },
  ...[301, 302, 307, 308].map((status) => ({
    name: `the access endpoint redirecting with ${status}`,
    faults: { rules: [redirects(status)] },
  })),
];

function dataset(emu: Emulator): RepoFs {
  return new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: TOKEN,
    timeoutMs: TIMEOUT_MS,
    retry: RETRY,
    headConcurrency: HEAD_CONCURRENCY,
  });
}

async function withPool(
  emu: Emulator,
  use: (pool: RepoFsPool) => Promise<void>,
): Promise<void> {
  await using pool = new RepoFsPool(dataset(emu), { workers: 2 });
  await use(pool);
}

function cli(emu: Emulator, args: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      CLI,
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "--timeout-ms",
      String(TIMEOUT_MS),
      "--retries",
      String(CLI_RETRIES),
      ...args,
    ],
    cwd: REPO,
    env: { REPO_API_TOKEN: TOKEN, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
}

/** A CLI failure as the error a library surface would raise. */
class CliFailure extends Error {
  constructor(readonly code: number, stderr: string) {
    super(stderr);
    this.name = "CliFailure";
  }
}

const SURFACES: Surface[] = [
  {
    name: "catFile whole",
    ranged: false,
    async read(emu) {
      deepStrictEqual(await dataset(emu).catFile("data.bin"), DATA);
    },
  },
  {
    name: "catFile ranged",
    ranged: true,
    async read(emu) {
      deepStrictEqual(
        await dataset(emu).catFile("data.bin", RANGE),
        DATA.slice(RANGE.start, RANGE.end),
      );
      deepStrictEqual(
        await dataset(emu).catFile("data.bin", { start: -100 }),
        DATA.slice(-100),
      );
    },
  },
  {
    name: "stream()",
    ranged: false,
    async read(emu) {
      const file = await dataset(emu).open("data.bin");
      deepStrictEqual(await collect(file.stream()), DATA);
    },
  },
  {
    name: "pool catFile",
    ranged: false,
    read: (emu) =>
      withPool(emu, async (pool) => {
        deepStrictEqual(await pool.catFile("data.bin"), DATA);
      }),
  },
  {
    name: "pool catRanges",
    ranged: true,
    read: (emu) =>
      withPool(emu, async (pool) => {
        const [range, tail] = await pool.catRanges([
          { path: "data.bin", ...RANGE },
          { path: "data.bin", start: -100 },
        ]);
        deepStrictEqual(range, DATA.slice(RANGE.start, RANGE.end));
        deepStrictEqual(tail, DATA.slice(-100));
      }),
  },
  {
    name: "getArray through a pool",
    ranged: false,
    read: (emu) =>
      withPool(emu, async (pool) => {
        const { data, shape } = await getArray(pool, "grid.zarr", "grid");
        deepStrictEqual(shape, [32, 32]);
        deepStrictEqual(data, GRID);
      }),
  },
  {
    name: "CLI cat",
    ranged: false,
    async read(emu) {
      const { code, stdout, stderr } = await cli(emu, ["cat", "data.bin"]);
      if (code !== 0) throw new CliFailure(code, decoder.decode(stderr));
      deepStrictEqual(stdout, DATA);
    },
  },
  {
    name: "CLI get",
    ranged: false,
    async read(emu) {
      const out = await Deno.makeTempDir();
      try {
        const { code, stderr } = await cli(emu, [
          "get",
          "*.bin",
          "--out",
          out,
        ]);
        const names = [];
        for await (const entry of Deno.readDir(out)) names.push(entry.name);
        ok(
          names.every((name) => name === "data.bin" || name === "empty.bin"),
          `only real names are left: ${names}`,
        );
        if (names.includes("data.bin")) {
          deepStrictEqual(await Deno.readFile(join(out, "data.bin")), DATA);
        }
        if (names.includes("empty.bin")) {
          equal((await Deno.stat(join(out, "empty.bin"))).size, 0);
        }
        if (code !== 0) throw new CliFailure(code, decoder.decode(stderr));
        deepStrictEqual(names.sort(), ["data.bin", "empty.bin"]);
      } finally {
        await Deno.remove(out, { recursive: true });
      }
    },
  },
];

function check(error: unknown, outcome: Outcome, surface: Surface): void {
  if (outcome.kind === "bytes") throw error;
  if (error instanceof CliFailure) {
    equal(error.code, 1, `exit status: ${error.message}`);
    ok(outcome.message.test(error.message), error.message);
    ok(!error.message.includes(TOKEN), "no token on stderr");
    return;
  }
  ok(error instanceof Error, String(error));
  equal(error.name, outcome.name, `${surface.name}: ${error.stack}`);
  const classes: Record<string, unknown> = {
    RepoProtocolError,
    RepoConnectionError,
    RepoHttpError,
  };
  ok(error instanceof (classes[outcome.name] as typeof Error));
  ok(outcome.message.test(error.message), error.message);
  for (
    const text of [
      String(error),
      JSON.stringify(error),
      error.stack ?? "",
      String(error.cause ?? ""),
    ]
  ) {
    ok(!text.includes(TOKEN), `the token shows in ${text}`);
  }
}

for (const fault of FAULTS) {
  Deno.test(`fault matrix: ${fault.name}`, async (t) => {
    for (const surface of SURFACES) {
      await t.step(surface.name, async () => {
        await using emu = await startEmulator({ files: FILES, token: TOKEN });
        await dataset(emu).ls("");
        Object.assign(emu.faults, fault.faults, {
          rules: (fault.faults?.rules ?? []).map((rule) => ({ ...rule })),
        });
        emu.resetCounters();
        const outcome = fault.expect?.(surface) ?? bytes;
        try {
          await bounded(surface.read(emu), surface.name);
          if (outcome.kind === "error") {
            fail(`${surface.name} read without the expected ${outcome.name}`);
          }
        } catch (error) {
          check(error, outcome, surface);
        }
        const { counters } = emu;
        ok(
          counters.peakConcurrentHeads <= HEAD_CONCURRENCY,
          `peak HEADs ${counters.peakConcurrentHeads}`,
        );
        equal(counters.storeRequestsWithToken, 0, "the token stays home");
        ok(
          counters.storeGets <= (fault.maxStoreGets ?? 60),
          `${counters.storeGets} store GETs`,
        );
        ok(counters.heads <= 40, `${counters.heads} HEADs`);
      });
    }
  });
}
