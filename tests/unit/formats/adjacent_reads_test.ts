import { deepStrictEqual, rejects } from "node:assert/strict";
import {
  AdjacentReads,
  MOST_GAP,
} from "../../../src/formats/geotiff/adjacent_reads.ts";

/** Reads of a 1000-byte file valued by offset, each range recorded. */
function file() {
  const ranges: [number, number][] = [];
  const reads = new AdjacentReads((start, end) => {
    ranges.push([start, end]);
    return Promise.resolve(
      Uint8Array.from({ length: end - start }, (_, i) => (start + i) % 256),
    );
  });
  return { reads, ranges };
}

Deno.test("reads asked together join where they touch or nearly; each gets its own bytes", async () => {
  const { reads, ranges } = file();
  const got = await Promise.all([
    reads.read(200, 210),
    reads.read(0, 10),
    reads.read(10, 20),
    reads.read(20 + MOST_GAP, 30 + MOST_GAP),
    reads.read(500, 510),
  ]);
  deepStrictEqual(ranges, [[0, 30 + MOST_GAP], [200, 210], [500, 510]]);
  deepStrictEqual(got.map((b) => [b[0], b.length]), [
    [200, 10],
    [0, 10],
    [10, 10],
    [20 + MOST_GAP, 10],
    [244, 10],
  ]);
});

Deno.test("reads with other signals are not joined; a failed read fails every read it joined", async () => {
  const ranges: [number, number][] = [];
  const reads = new AdjacentReads((start, end) => {
    ranges.push([start, end]);
    return Promise.reject(new Error(`no bytes ${start}..${end}`));
  });
  const signal = new AbortController().signal;
  const asked = [
    reads.read(0, 10),
    reads.read(10, 20),
    reads.read(20, 30, signal),
  ];
  await rejects(asked[0], /no bytes 0\.\.20/);
  await rejects(asked[1], /no bytes 0\.\.20/);
  await rejects(asked[2], /no bytes 20\.\.30/);
  deepStrictEqual(ranges, [[0, 20], [20, 30]]);
});
