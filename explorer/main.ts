/**
 * The explorer page: opens the dataset the address names, shows its tree,
 * and previews what the user opens, fetching only the bytes each preview
 * needs. `#path=…` links to a folder or file and survives a reload.
 * `document.body.dataset.state` is `ready` once the tree is shown, or
 * `failed` with the reason in the preview region.
 *
 * @module
 */

/// <reference lib="dom" />

import { RepoFsPool } from "../mod.ts";
import { ByteMeter } from "./byte_meter.ts";
import { openDataset } from "./config.ts";
import { el } from "./dom.ts";
import { preview, type PreviewContext } from "./preview.ts";
import { TreeView } from "./tree_view.ts";

/** Workers of the pool that decodes arrays. */
const WORKERS = Math.min(4, navigator.hardwareConcurrency || 2);

const $ = (id: string) => document.getElementById(id)!;
const region = $("preview");
const status = $("status");

try {
  const meter = new ByteMeter();
  const opened = await openDataset(new URL(location.href), meter.fetch);
  const { fs } = opened;
  $("dataset").textContent = opened.pid;
  let pool: RepoFsPool | undefined;
  const context: PreviewContext = {
    fs,
    host: opened.host,
    meter,
    pool: () =>
      pool ??= new RepoFsPool(fs, {
        workers: WORKERS,
        workerUrl: new URL("worker.js", import.meta.url),
      }),
  };
  const show = (path: string) => {
    history.replaceState(null, "", `#path=${encodeURIComponent(path)}`);
    void fs.info(path).then((entry) => preview(region, status, context, entry));
  };
  const tree = new TreeView($("tree"), fs, (entry) => show(entry.name));
  await tree.start();
  const filter = $("filter") as HTMLInputElement;
  let typing: ReturnType<typeof setTimeout> | undefined;
  filter.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => void tree.filter(filter.value), 200);
  });
  document.body.dataset.readyAt = String(performance.now());
  document.body.dataset.state = "ready";
  const linked = new URLSearchParams(location.hash.slice(1)).get("path");
  if (opened.fileId !== undefined) {
    await tree.reveal((await fileById(fs, opened.fileId)).name);
  } else if (linked) await tree.reveal(linked);
} catch (error) {
  region.replaceChildren(
    el(
      "p",
      { class: "error" },
      `Cannot open the dataset: ${(error as Error).message}`,
    ),
  );
  document.body.dataset.state = "failed";
}

async function fileById(fs: PreviewContext["fs"], id: number) {
  for (const path of await fs.find("")) {
    const entry = await fs.info(path);
    if (entry.id === id) return entry;
  }
  throw new Error(`no file with id ${id} in the dataset`);
}
