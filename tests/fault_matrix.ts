/**
 * The fault matrix: every fault a hostile or broken server can act out, against
 * read surfaces: the right bytes or the named error, within a bound on time and
 * on requests, with the HEAD budget kept and the token never leaving the
 * repository or showing in an error.
 */
import { equal, fail, ok } from "node:assert/strict";
import {
  RepoConnectionError,
  RepoFs,
  RepoHttpError,
  RepoProtocolError,
} from "../mod.ts";
import {
  type Emulator,
  type EmulatorFaults,
  startEmulator,
} from "../emulator.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { bounded, patterned } from "./support.ts";
import {
  ignoreRange,
  portalPage,
  rangeCap,
  redirects,
  shiftContentRange,
} from "./emulator_faults.ts";

export const TOKEN = "matrix-token-0123456789";
export const TIMEOUT_MS = 300;
const RETRY = { retries: 5, baseDelayMs: 5, maxDelayMs: 50 };
const HEAD_CONCURRENCY = 3;

export const DATA = patterned(256 * 1024 + 3, 5);
export const RANGE = { start: 1000, end: 200_000 };
export const GRID = ramp(Float64Array, 32 * 32, 0.5, -3);
const FILES = {
  "data.bin": DATA,
  "empty.bin": "",
  ...await buildZarrStore(
    [{ path: "grid", data: GRID, shape: [32, 32], chunks: [16, 16] }],
    { format: 2, prefix: "grid.zarr" },
  ),
};

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

export interface Surface {
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

export function dataset(emu: Emulator): RepoFs {
  return new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: TOKEN,
    timeoutMs: TIMEOUT_MS,
    retry: RETRY,
    headConcurrency: HEAD_CONCURRENCY,
  });
}

/** A CLI failure as the error a library surface would raise. */
export class CliFailure extends Error {
  constructor(readonly code: number, stderr: string) {
    super(stderr);
    this.name = "CliFailure";
  }
}

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

/** One test for each fault, a step for each of `surfaces`. */
export function faultMatrix(label: string, surfaces: Surface[]): void {
  for (const fault of FAULTS) {
    Deno.test(`${label}: ${fault.name}`, async (t) => {
      for (const surface of surfaces) {
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
}
