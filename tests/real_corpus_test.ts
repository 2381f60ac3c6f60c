// Real files from other projects' public test suites (fixtures/real/, see
// SOURCES.md), served by the emulator and read whole through the public
// entries: each ends right (the values the writing project's own tools read,
// fixtures/real/expected*.json), or refused with a FormatError naming why;
// never wrong, crashing, hanging or leaving a rejection unhandled. The files
// read wrong today are listed, with why, in KNOWN.

import { fail, ok } from "node:assert/strict";
import { RepoFs } from "../mod.ts";
import { type EmulatorCounters, startEmulator } from "../emulator.ts";
import { bounded } from "./support.ts";
import {
  type Expected,
  netcdfEntry,
  type PartEnd,
  readArrays,
  readColumns,
  readZip,
} from "./real_corpus_read.ts";
import {
  CLASSIC_UNTIL_NETCDF,
  type Expectation,
  EXPECTED,
  KNOWN,
} from "./real_corpus_expectations.ts";

const ROOT = new URL("../fixtures/real/", import.meta.url);
const expected: Record<string, Expected> = {
  ...JSON.parse(await Deno.readTextFile(new URL("expected.json", ROOT))),
  ...JSON.parse(
    await Deno.readTextFile(new URL("expected_parquet.json", ROOT)),
  ),
};

/** What went wrong with a file, one line each; none when it ended as expected. */
function problemOf(ends: PartEnd[], expectation: Expectation): string[] {
  const problems: string[] = [];
  for (const end of ends) {
    if (end.end === "wrong" || end.end === "crash") {
      problems.push(
        `${end.end} ${end.part}: ${"detail" in end ? end.detail : end.message}`,
      );
    } else if (end.end === "unchecked" && !expectation.unverified) {
      problems.push(`wrong ${end.part}: ${end.detail}`);
    } else if (
      end.end === "refused" && !expectation.refused?.test(end.message)
    ) {
      problems.push(`refused ${end.part}, not expected: ${end.message}`);
    }
  }
  return problems;
}

Deno.test("every real file reads right or is refused by name", async (t) => {
  const unhandled: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", listener);
  await using emu = await startEmulator({ dir: ROOT.pathname });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const netcdf = await netcdfEntry();
  const count = {
    right: 0,
    refused: 0,
    unverified: 0,
    known: 0,
  };
  const overRefused: string[] = [];
  try {
    for (const [file, want] of Object.entries(expected)) {
      await t.step(file, async () => {
        const expectation =
          want.kind === "netcdf-classic" && !netcdf && !EXPECTED[file]
            ? CLASSIC_UNTIL_NETCDF
            : EXPECTED[file] ?? {};
        const read = want.kind === "zip"
          ? readZip(fs, file, want)
          : want.kind === "parquet"
          ? readColumns(fs, file, want, expectation.documented)
          : readArrays(fs, file, want, netcdf);
        const ends = await bounded(read, `reading ${file}`);
        // A failed read may leave work running whose rejection comes later.
        const failed = ends.some((end) => end.end !== "right");
        await (failed ? quiet(emu) : turn());
        for (const reason of unhandled.splice(0)) {
          ends.push({
            part: "(unhandled)",
            end: "crash",
            message: String(reason),
          });
        }
        const problems = problemOf(ends, expectation);
        const known = KNOWN[file];
        if (known) {
          ok(
            problems.length > 0,
            `${file} now ends as expected: remove its KNOWN entry (${known.why})`,
          );
          const other = problems.filter((line) => !known.detail.test(line));
          ok(
            other.length === 0,
            `${file}: beyond the known problem (${known.why}):\n${
              other.join("\n")
            }`,
          );
          count.known++;
          return;
        }
        if (problems.length) fail(`${file}:\n${problems.join("\n")}`);
        const refusals = ends.filter((end) => end.end === "refused");
        if (ends.some((end) => end.end === "unchecked")) count.unverified++;
        else if (refusals.length) {
          count.refused++;
          if (
            want.refused === undefined &&
            !refusals.every((end) => refusedByReference(want, end.part))
          ) {
            overRefused.push(file);
          }
        } else count.right++;
      });
    }
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
  console.log(
    `${
      Object.keys(expected).length
    } files: ${count.right} right, ${count.refused} refused by name (wholly or in part; ${overRefused.length} of them where the reference tool reads what is refused), ${count.unverified} read with no reference to check, ${count.known} known-bad${
      netcdf ? "" : " (classic NetCDF refused: no ./netcdf entry yet)"
    }`,
  );
  console.log(`refused where the reference reads: ${overRefused.join(", ")}`);
});

/** One turn of the event loop. */
function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves once the emulator has had no request for a few turns. */
async function quiet(emu: { counters: EmulatorCounters }): Promise<void> {
  let seen = -1;
  for (let calm = 0; calm < 3;) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const c = emu.counters;
    const now = c.storeGets + c.accessGets + c.heads;
    const busy = c.concurrentStoreGets + c.concurrentHeads > 0;
    calm = !busy && now === seen ? calm + 1 : 0;
    seen = now;
  }
}

/** Whether the reference tool refused (or had no value for) the part too. */
function refusedByReference(want: Expected, part: string): boolean {
  const parts: Expected[] = want.kind === "zip"
    ? (want.members ?? []).filter((m: Expected) => !m.directory)
    : Object.values(want.variables ?? {});
  const refused = (p: Expected) =>
    p.refused !== undefined || p.unsupported !== undefined ||
    (want.kind === "zip" && p.md5 === undefined && p.md5_7z === undefined);
  if (part === "(archive)" || part === "(file)") return parts.every(refused);
  const found = want.kind === "zip"
    ? parts.find((m) => (m.unicode_path ?? m.name) === part)
    : want.variables?.[part];
  return found !== undefined && refused(found);
}
