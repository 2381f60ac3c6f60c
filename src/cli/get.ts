/**
 * The `get` command: selects files by pattern, then lists them
 * (`--dry-run`) or downloads them with {@linkcode downloadAll}, showing
 * progress on a terminal and a summary at the end.
 *
 * @module
 */

import { integerOption, stringOption, UsageError } from "./args.ts";
import type { Context } from "./context.ts";
import { downloadAll, type Outcome } from "./download.ts";
import { formatSize, lsLines } from "./format.ts";
import { displayPath, quotePath } from "./io.ts";
import { Progress } from "./progress.ts";
import { OutputRoot, unsafePathReason } from "./safe_path.ts";
import { type Refusal, selectFiles } from "./select.ts";
import { onStopSignal } from "./signals.ts";

const DEFAULT_PARALLEL = 8;
/** Exit status of a run stopped by Ctrl-C, as shells report it. */
const INTERRUPTED = 130;

/**
 * One file that did not arrive, in the summary.
 *
 * @example
 * ```ts
 * import type { Failure } from "./get.ts";
 * const failure: Failure = { path: "../x", error: 'it has a ".." segment', refused: true };
 * ```
 */
export interface Failure {
  /** The dataset path (as listed). */
  path: string;
  /** What went wrong. */
  error: string;
  /** True when the path was refused as unsafe or left out of the tree. */
  refused: boolean;
}

/**
 * `get PATTERN... --out DIR [--parallel N] [--resume] [--dry-run]`.
 * Exit status 0 when every selected file arrived (or was already there),
 * 1 when any failed, was refused, or a pattern matched nothing, 130 when
 * interrupted.
 *
 * @example
 * ```ts ignore
 * const status = await get(context);
 * ```
 */
export async function get(context: Context): Promise<number> {
  const { line, out } = context;
  const parallel = integerOption(line, "parallel", { min: 1 }) ??
    DEFAULT_PARALLEL;
  const dryRun = line.values["dry-run"] === true;
  const outDir = stringOption(line, "out");
  if (outDir === undefined && !dryRun) {
    throw new UsageError("get: missing --out DIR", "get");
  }
  const fs = await context.dataset();
  const selection = await selectFiles(fs, line.positionals);
  const failures: Failure[] = selection.refused.map(refusedFailure);
  for (const failure of failures) report(context, failure);
  for (const pattern of selection.unmatched) {
    out.error(`no file matches ${quotePath(pattern)}`);
  }
  const failed = () => failures.length + selection.unmatched.length > 0;

  if (dryRun) {
    const files = selection.files.filter((file) => {
      const reason = unsafePathReason(file.name);
      if (reason === undefined) return true;
      const failure = { path: file.name, error: reason, refused: true };
      failures.push(failure);
      report(context, failure);
      return false;
    });
    const bytes = files.reduce((sum, file) => sum + (file.size ?? 0), 0);
    if (context.json) {
      await out.json({
        dryRun: true,
        selected: files.length,
        bytes,
        files: files.map((file) => ({ path: file.name, size: file.size })),
        failures,
        unmatched: selection.unmatched,
      });
    } else {
      await out.print(
        [
          ...lsLines(files),
          `${files.length} file${files.length === 1 ? "" : "s"}, ${
            formatSize(bytes)
          }; nothing written (dry run)`,
        ].join("\n"),
      );
    }
    return failed() ? 1 : 0;
  }

  const root = await OutputRoot.open(outDir!);
  const total = selection.files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  const showProgress = !context.json && Deno.stderr.isTerminal();
  const progress = new Progress(
    showProgress ? out : undefined,
    selection.files.length,
    total,
  );
  const controller = new AbortController();
  const dispose = onStopSignal(() => controller.abort());
  const started = performance.now();
  let outcomes: Outcome[];
  try {
    outcomes = await downloadAll(fs, root, selection.files, {
      parallel,
      resume: line.values.resume === true,
      signal: controller.signal,
      onBytes: (bytes) => progress.add(bytes),
      onOutcome: (outcome) => {
        progress.fileDone(outcome.status === "skipped" ? outcome.bytes : 0);
        if (outcome.status === "failed") {
          const { path, error, refused } = outcome;
          failures.push({ path, error, refused });
          report(context, failures[failures.length - 1]);
        } else if (context.verbose) {
          out.stderr(`${outcome.status}: ${displayPath(outcome.path)}\n`);
        }
      },
    });
  } finally {
    dispose();
    progress.finish();
  }
  const seconds = (performance.now() - started) / 1000;
  const count = (status: Outcome["status"]) =>
    outcomes.filter((o) => o.status === status).length;
  const bytes = outcomes.reduce(
    (sum, o) => sum + (o.status === "downloaded" ? o.bytes : 0),
    0,
  );
  const unverified =
    outcomes.filter((o) => o.status === "downloaded" && o.verified === "none")
      .length;
  const interrupted = controller.signal.aborted;
  if (context.json) {
    await out.json({
      out: root.path,
      selected: selection.files.length,
      downloaded: count("downloaded"),
      skipped: count("skipped"),
      failed: failures.length,
      bytes,
      unverified,
      seconds: Math.round(seconds * 1000) / 1000,
      interrupted,
      failures,
      unmatched: selection.unmatched,
    });
  } else {
    await out.print(
      [
        `Downloaded ${count("downloaded")} of ${selection.files.length} files`,
        ` (${formatSize(bytes)}) into ${outDir} in ${seconds.toFixed(1)} s`,
        count("skipped") > 0
          ? `; ${count("skipped")} already complete, skipped`
          : "",
        failures.length > 0 ? `; ${failures.length} failed` : "",
        unverified > 0
          ? `; ${unverified} not verifiable (no MD5, or more bytes served than listed)`
          : "",
      ].join(""),
    );
  }
  if (interrupted) {
    out.error(
      "interrupted: files not finished were removed; run again with --resume",
    );
    return INTERRUPTED;
  }
  return failed() ? 1 : 0;
}

function refusedFailure(refusal: Refusal): Failure {
  return { path: refusal.path, error: refusal.reason, refused: true };
}

function report(context: Context, failure: Failure): void {
  context.out.error(
    `${failure.refused ? "refused" : "failed"} ${
      quotePath(failure.path)
    }: ${failure.error}`,
  );
}
