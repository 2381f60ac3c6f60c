// Behaviour of src/cli/progress.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { Output } from "../../../src/cli/io.ts";
import { Progress, progressLine } from "../../../src/cli/progress.ts";

Deno.test("progressLine: The progress line for a state, cut to `columns` characters", () => {
  const state = {
    files: 3,
    totalFiles: 10,
    bytes: 2048,
    totalBytes: 4096,
    seconds: 2,
  };
  strictEqual(
    progressLine(state),
    "3/10 files (30%)  2.0 KiB/4.0 KiB (50%)  [##########----------]  1.0 KiB/s  ETA 0:02",
  );
  strictEqual(progressLine(state, 21), "3/10 files (30%)");
});

Deno.test("Progress: Counts a run and redraws the line", () => {
  const out = new Output();
  const drawn: string[] = [];
  out.progress = (line) => {
    drawn.push(line);
  }; // instead of the terminal
  const progress = new Progress(out, 2, 10);
  progress.add(10);
  strictEqual(
    drawn[0],
    "0/2 files (0%)  10 B/10 B (100%)  [####################]",
  );
  progress.fileDone();
  progress.finish();
});
