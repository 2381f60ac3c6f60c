/**
 * The `get` command: selects files by pattern, then lists them
 * (`--dry-run`) or downloads them with {@linkcode downloadAll}, showing
 * progress on a terminal and a summary at the end. Without an API token,
 * files the listing marks restricted or embargoed are skipped and reported
 * apart: no request could read them.
 *
 * @module
 */

import { RepoFsPool } from "../pool/pool.ts";
import type { Verification } from "../download/file_download.ts";
import type { FileInfo } from "../base/types.ts";
import {
  parseShard,
  type Shard,
  SHARD_VARIABLES,
  shardFromEnvironment,
  shardOf,
} from "../fleet/shards.ts";
import { integerOption, listOption, stringOption, UsageError } from "./args.ts";
import { pathFilter } from "./filters.ts";
import { type ArchiveView, datasetView } from "./archive_path.ts";
import { type Context, selectedPaths } from "./context.ts";
import { downloadAll, type Outcome } from "./download.ts";
import { formatSize, lsLines } from "./format.ts";
import { displayPath, quotePath } from "./io.ts";
import { nothingFound, NothingFoundError } from "./nothing_found.ts";
import {
  type Placed,
  placedDownloads,
  placeMembers,
} from "./member_download.ts";
import { Progress } from "./progress.ts";
import { OutputRoot, unsafePathReason } from "./safe_path.ts";
import { selectFiles, type Selection } from "./select.ts";
import { shortPath, shortWords } from "../base/short_path.ts";
import { targetClashes } from "./target_clash.ts";
import { INTERRUPTED, stopSignal } from "./signals.ts";
import { interruptedLine, keptPartials } from "./interrupted_get.ts";
import { failureLine } from "./failure_line.ts";

const DEFAULT_PARALLEL = 8;
const SAME_PLACE = "another selected file is written to the same path";

/** One file that did not arrive, in the summary. */
export interface Failure {
  /** The dataset path (as listed). */
  path: string;
  /** What went wrong. */
  error: string;
  /** True when the path was refused as unsafe or left out of the tree. */
  refused: boolean;
}

/**
 * `get PATTERN... --out DIR [--parallel N] [--resume] [--dry-run]
 * [--shard I/N|auto]`. With `--shard`, only that share of the selected
 * files (and of the refused entries) is fetched, and a line on stderr says
 * which share it is. A listed file whose place in the output folder is a
 * directory, or whose folder's place is a file, fails before any byte is
 * downloaded, with one line naming both paths.
 * Exit status 0 when every selected file arrived (or was already there, or
 * is restricted and no token was given), 1 when any failed, was refused,
 * or a pattern matched nothing, 130 when
 * interrupted by SIGINT or SIGTERM: the downloads in flight are stopped,
 * their bytes kept under hidden partial names for the next `--resume` to
 * go on from, and one line says how far it got and names them. An
 * output folder that cannot be written is one line before any byte is
 * fetched.
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
  const shard = shardOption(context);
  const fs = await datasetView(context);
  const all = filtered(
    await selectFiles(fs, selectedPaths(context, "PATTERN")),
    context,
  );
  const selection = shard === undefined ? all : shareOf(all, shard);
  const quiet = line.values.quiet === true;
  if (shard !== undefined && !quiet) {
    out.stderr(`${shareLine(shard, all, selection)}\n`);
  }
  const failures: Failure[] = [];
  const fail = (failure: Failure) => {
    failures.push(failure);
    context.out.error(
      `${failure.refused ? "refused" : "failed"} ${
        quotePath(shortPath(failure.path))
      }: ${shortWords(failure.error)}`,
    );
  };
  for (const { path, reason } of selection.refused) {
    fail({ path, error: reason, refused: true });
  }
  for (const pattern of selection.unmatched) {
    out.error((await nothingFound(fs, pattern, "pattern")).message);
  }
  const selected = selection.files.length + selection.refused.length;
  if (selected === 0 && selection.unmatched.length > 0) return 1;
  const anonymous = await context.token() === undefined;
  const restricted = anonymous
    ? selection.files.filter((file) => file.restricted)
    : [];
  for (const file of restricted) out.error(restrictedLine(file));
  const readable = restricted.length === 0
    ? selection.files
    : selection.files.filter((file) => !file.restricted);

  if (dryRun) {
    const files = readable.filter((file) => {
      const reason = unsafePathReason(file.name);
      if (reason !== undefined) {
        fail({ path: file.name, error: reason, refused: true });
      }
      return reason === undefined;
    });
    await unlessStdoutClosed(printPlan(context, {
      selected,
      files,
      failures,
      selection,
      restricted,
    }));
  } else {
    const root = await OutputRoot.open(outDir!);
    const placed = placeMembers(readable);
    for (const file of placed.clashes) {
      fail({ path: file.name, error: SAME_PLACE, refused: false });
    }
    const clashes = await targetClashes(root, placed.files);
    for (const [file, error] of clashes) {
      fail({ path: shownPath(placed, file.name), error, refused: false });
    }
    const started = performance.now();
    const { outcomes, interrupted } = await download(context, {
      fs,
      placed,
      root,
      files: placed.files.filter((file) => !clashes.has(file)),
      parallel,
      fail,
    });
    const seconds = (performance.now() - started) / 1000;
    if (context.json || (!interrupted && !quiet)) {
      await unlessStdoutClosed(printSummary(context, {
        out: context.json ? root.path : outDir!,
        selected,
        outcomes,
        failures,
        seconds,
        interrupted,
        unmatched: selection.unmatched,
        restricted,
      }));
    }
    if (interrupted) {
      const kept = await keptPartials(root, outDir!, placed.files, outcomes);
      out.error(interruptedLine(outcomes, selected, kept));
      return INTERRUPTED;
    }
  }
  return failures.length + selection.unmatched.length > 0 ? 1 : 0;
}

/**
 * Waits for `printing`; a stdout its reader closed (`| head`) ends the
 * report, not the command, whose status stands.
 */
async function unlessStdoutClosed(printing: Promise<void>): Promise<void> {
  try {
    await printing;
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

/**
 * The selection with `--include` and `--exclude` applied; when they leave
 * nothing of files that were selected, a {@linkcode NothingFoundError}.
 */
function filtered(selection: Selection, context: Context): Selection {
  const includes = listOption(context.line, "include");
  const excludes = listOption(context.line, "exclude");
  if (includes.length + excludes.length === 0) return selection;
  let keep;
  try {
    keep = pathFilter(includes, excludes);
  } catch (error) {
    throw new UsageError((error as Error).message, "get");
  }
  const files = selection.files.filter((file) => keep(file.name));
  if (files.length === 0 && selection.files.length > 0) {
    const said = [
      ...includes.map((p) => `--include ${quotePath(p)}`),
      ...excludes.map((p) => `--exclude ${quotePath(p)}`),
    ].join(" ");
    throw new NothingFoundError(
      `no file of the ${selection.files.length} selected passes ${said}`,
    );
  }
  return {
    ...selection,
    files,
    refused: selection.refused.filter((refusal) => keep(refusal.path)),
  };
}

/** `--shard I/N`, or with `auto` the share the job array's environment gives. */
function shardOption(context: Context): Shard | undefined {
  const text = stringOption(context.line, "shard");
  if (text === undefined) return undefined;
  try {
    if (text !== "auto") return parseShard(text);
    const env = Object.fromEntries(
      SHARD_VARIABLES.map((name) => [name, Deno.env.get(name)]),
    );
    return shardFromEnvironment(env);
  } catch (error) {
    throw new UsageError(`--shard ${text}: ${(error as Error).message}`, "get");
  }
}

/** The files and refused entries of one share of the selection. */
function shareOf(selection: Selection, shard: Shard): Selection {
  const refused = selection.refused.map((refusal) => ({
    name: refusal.path,
    size: 0,
    refusal,
  }));
  return {
    files: shardOf(selection.files, shard),
    refused: shardOf(refused, shard).map(({ refusal }) => refusal),
    unmatched: selection.unmatched,
  };
}

/** `share 1/4: 37 of 150 files, 1.2 GiB`. */
function shareLine(shard: Shard, all: Selection, share: Selection): string {
  const bytes = share.files.reduce((sum, file) => sum + (file.size ?? 0), 0);
  const count = (selection: Selection) =>
    selection.files.length + selection.refused.length;
  return `share ${shard.index}/${shard.count}: ${count(share)} of ${
    count(all)
  } files, ${formatSize(bytes)}`;
}

/** Runs the downloader with progress, stopping cleanly on Ctrl-C or SIGTERM. */
async function download(
  context: Context,
  job: {
    fs: ArchiveView;
    placed: Placed;
    root: OutputRoot;
    files: FileInfo[];
    parallel: number;
    fail: (failure: Failure) => void;
  },
): Promise<{ outcomes: Outcome[]; interrupted: boolean }> {
  const { out, line } = context;
  const total = job.files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  const showProgress = !context.json && line.values.quiet !== true &&
    line.values["no-progress"] !== true;
  const progress = new Progress(
    showProgress ? out : undefined,
    job.files.length,
    total,
    Deno.stderr.isTerminal(),
  );
  using stop = stopSignal();
  const fromDataset = job.files.length - job.placed.members.size;
  const workers = Math.max(
    1,
    Math.min(job.parallel, fromDataset, navigator.hardwareConcurrency),
  );
  await using pool = fromDataset > 0
    ? new RepoFsPool(job.fs.dataset, { workers })
    : undefined;
  const downloads = placedDownloads(job.fs, job.placed.members, pool);
  try {
    const outcomes = await downloadAll(downloads, job.root, job.files, {
      parallel: job.parallel,
      resume: line.values.resume === true,
      signal: stop.signal,
      // A refused token names the header it went in, as a command's last line does.
      describe: (error) => failureLine(error, context),
      onBytes: (bytes) => progress.add(bytes),
      onOutcome: (outcome) => {
        progress.fileDone(outcome.status === "skipped" ? outcome.bytes : 0);
        if (outcome.status === "failed") {
          const { path, error, refused } = outcome;
          job.fail({ path: shownPath(job.placed, path), error, refused });
        } else if (context.verbose) {
          out.stderr(`${outcome.status}: ${displayPath(outcome.path)}\n`);
        }
      },
    });
    return { outcomes, interrupted: stop.signal.aborted };
  } finally {
    progress.finish();
  }
}

/** The path a placed file was selected by (a member's `a.zip!/…`). */
function shownPath(placed: Placed, name: string): string {
  return placed.members.get(name) ?? name;
}

/** The line for a restricted file skipped for want of a token. */
function restrictedLine(file: FileInfo): string {
  const embargo = file.embargoedUntil === undefined
    ? ""
    : ` (embargoed until ${file.embargoedUntil})`;
  return `restricted ${
    quotePath(shortPath(file.name))
  }${embargo}: skipped, no access without an API token`;
}

/** `--dry-run`'s output: the files that would be fetched and their total. */
async function printPlan(
  context: Context,
  plan: {
    selected: number;
    files: FileInfo[];
    failures: Failure[];
    selection: Selection;
    restricted: FileInfo[];
  },
): Promise<void> {
  const { files, restricted } = plan;
  const bytes = files.reduce((sum, file) => sum + (file.size ?? 0), 0);
  if (context.json) {
    await context.out.json({
      dryRun: true,
      selected: plan.selected,
      bytes,
      files: files.map((file) => ({ path: file.name, size: file.size })),
      failures: plan.failures,
      unmatched: plan.selection.unmatched,
      restricted: restricted.length,
      restrictedFiles: restricted.map((file) => file.name),
    });
    return;
  }
  await context.out.print(
    [
      ...lsLines(files),
      `${files.length} file${files.length === 1 ? "" : "s"}, ${
        formatSize(bytes)
      }; nothing written (dry run)${restrictedNote(restricted.length)}`,
    ].join("\n"),
  );
}

/** What the summary says of restricted files skipped, if any. */
function restrictedNote(count: number): string {
  return count === 0
    ? ""
    : `; ${count} restricted, skipped (no access without an API token)`;
}

/** The closing summary: one line, or one JSON object. */
async function printSummary(
  context: Context,
  run: {
    out: string;
    selected: number;
    outcomes: Outcome[];
    failures: Failure[];
    seconds: number;
    interrupted: boolean;
    unmatched: string[];
    restricted: FileInfo[];
  },
): Promise<void> {
  const { outcomes, failures, seconds, restricted } = run;
  const count = (status: Outcome["status"]) =>
    outcomes.filter((o) => o.status === status).length;
  const bytes = outcomes.reduce(
    (sum, o) => sum + (o.status === "downloaded" ? o.bytes : 0),
    0,
  );
  const verified: Partial<Record<Verification, number>> = {};
  for (const outcome of outcomes) {
    if (outcome.status !== "downloaded") continue;
    verified[outcome.verified] = (verified[outcome.verified] ?? 0) + 1;
  }
  const { none: unverified = 0, ...checked } = verified;
  if (context.json) {
    await context.out.json({
      out: run.out,
      selected: run.selected,
      downloaded: count("downloaded"),
      skipped: count("skipped"),
      failed: failures.length,
      bytes,
      verified: checked,
      unverified,
      restricted: restricted.length,
      seconds: Math.round(seconds * 1000) / 1000,
      interrupted: run.interrupted,
      failures,
      unmatched: run.unmatched,
      restrictedFiles: restricted.map((file) => file.name),
    });
    return;
  }
  const refused = failures.filter((failure) => failure.refused).length;
  await context.out.print(
    [
      `Downloaded ${count("downloaded")} of ${run.selected} files`,
      ` (${formatSize(bytes)}) into ${run.out} in ${seconds.toFixed(1)} s`,
      count("skipped") > 0
        ? `; ${count("skipped")} already complete, skipped`
        : "",
      failures.length > 0 ? `; ${failures.length} failed` : "",
      refused > 0 ? ` (${refused} refused as unsafe)` : "",
      unverified > 0
        ? `; ${unverified} not verifiable (no size or checksum listed, a checksum of an unknown type, or an ingested tabular file)`
        : "",
      restrictedNote(restricted.length),
    ].join(""),
  );
}
