/**
 * The preview region: a file's or folder's facts, its preview by kind, and
 * the status line saying how many bytes the preview fetched of the file's
 * size. A failure is a line in the region that says what happened.
 *
 * @module
 */

/// <reference lib="dom" />

import type { FileInfo, ReadOnlyTree, RepoFs, RepoFsPool } from "../mod.ts";
import type { ByteMeter } from "./byte_meter.ts";
import { el } from "./dom.ts";
import { kindOf } from "./file_kind.ts";
import { humanSize } from "./human_size.ts";
import { showArrays } from "./array_preview.ts";
import { showParquet } from "./parquet_preview.ts";
import { showTable, showText } from "./table_preview.ts";
import { showZip } from "./zip_preview.ts";
import { showImage } from "./image_preview.ts";
import { showGeotiff } from "./geotiff_preview.ts";

/** What previews read through. */
export interface PreviewContext {
  fs: RepoFs;
  /** The pool that decodes arrays, once one is wanted. */
  pool: () => RepoFsPool;
  /** The repository's base, for download links. */
  host: string;
  meter: ByteMeter;
}

/** Fills the region for `entry` of the dataset. */
export async function preview(
  region: HTMLElement,
  status: HTMLElement,
  context: PreviewContext,
  entry: FileInfo,
): Promise<void> {
  const { fs } = context;
  const facts = el("dl", { class: "facts" });
  const view = el("div", { class: "view" });
  region.replaceChildren(el("h2", {}, entry.name || "/"), facts, view);
  region.dataset.state = "reading";
  const { meter } = context;
  meter.reset();
  meter.onChange = () => {};
  let size = entry.size;
  try {
    if (entry.type === "directory") {
      const children = await fs.ls(entry.name);
      size = await fs.du(entry.name);
      addFacts(facts, [["entries", String(children.length)], [
        "size below",
        humanSize(size),
      ]]);
      const names = children.map((c) =>
        c.name.slice(c.name.lastIndexOf("/") + 1)
      );
      if (kindOf(entry.name, names) === "zarr") {
        await showArrays(view, {
          reader: context.pool(),
          source: fs,
          root: entry.name,
          file: false,
        });
      }
    } else {
      addFacts(facts, fileFacts(entry, context.host));
      await showFile(view, fs, entry.name, context, true);
    }
    region.dataset.state = "shown";
  } catch (error) {
    view.replaceChildren(failure(error));
    region.dataset.state = "failed";
  }
  showStatus(status, meter.bytes, size);
  meter.onChange = () => showStatus(status, meter.bytes, size);
}

/** The preview of file `path` of `source` by its kind. */
function showFile(
  view: HTMLElement,
  source: ReadOnlyTree,
  path: string,
  context: PreviewContext,
  inDataset: boolean,
): Promise<void> {
  const showMember = async (
    memberView: HTMLElement,
    tree: ReadOnlyTree,
    member: string,
  ) => {
    try {
      memberView.replaceChildren(el("h3", {}, member));
      const inner = el("div", {});
      memberView.append(inner);
      await showFile(inner, tree, member, context, false);
    } catch (error) {
      memberView.append(failure(error));
    }
  };
  switch (kindOf(path)) {
    case "table":
      return showTable(view, source, path);
    case "text":
      return showText(view, source, path);
    case "parquet":
      return showParquet(view, source, path);
    case "zip":
      return showZip(view, source, path, showMember);
    case "hdf5":
      return showArrays(view, {
        reader: inDataset ? context.pool() : source,
        source,
        root: path,
        file: true,
      });
    case "geotiff":
      return showGeotiff(
        view,
        source,
        inDataset ? context.pool() : source,
        path,
      );
    case "image":
      return showImage(view, source, path);
    default:
      view.replaceChildren(
        el(
          "p",
          {},
          "No preview for this kind of file: its facts and download link are above.",
        ),
      );
      return Promise.resolve();
  }
}

function fileFacts(entry: FileInfo, host: string): [string, string | Node][] {
  const facts: [string, string | Node][] = [["size", humanSize(entry.size)]];
  if (entry.checksum) {
    facts.push(["checksum", `${entry.checksum.type} ${entry.checksum.value}`]);
  }
  if (entry.contentType) facts.push(["content type", entry.contentType]);
  if (entry.id !== undefined) {
    facts.push(["id", String(entry.id)]);
    const base = /^https?:\/\//.test(host) ? host : `https://${host}`;
    const href = `${base.replace(/\/+$/, "")}/api/access/datafile/${entry.id}`;
    facts.push(["download", el("a", { href, download: "" }, href)]);
  }
  if (entry.restricted) {
    facts.push(["access", "restricted: reading it needs a token with access"]);
  }
  return facts;
}

function addFacts(list: HTMLElement, facts: [string, string | Node][]): void {
  for (const [name, value] of facts) {
    list.append(el("dt", {}, name), el("dd", {}, value));
  }
}

/** The line a failed preview shows. */
function failure(error: unknown): HTMLElement {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : "Error";
  return el(
    "p",
    { class: "error" },
    `Cannot preview this: ${name}: ${message}`,
  );
}

/** "Fetched 12.0 KiB of 98.1 MiB (0.01 %)". */
function showStatus(
  status: HTMLElement,
  bytes: number,
  size: number | null,
): void {
  status.dataset.bytes = String(bytes);
  status.dataset.size = String(size ?? "");
  const share = size ? ` (${((100 * bytes) / size).toFixed(2)} %)` : "";
  status.textContent = `Fetched ${humanSize(bytes)} of ${
    humanSize(size)
  }${share}`;
}
