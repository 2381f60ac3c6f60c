/**
 * The demo page's view of the dataset's tree: nested lists of directories
 * (open or closed) and files with their sizes; a directory holding a Zarr
 * array (`.zarray`) is marked and can be picked.
 *
 * @module
 */

/// <reference lib="dom" />

import type { RepoFs } from "../../mod.ts";
import { humanSize } from "../../explorer/human_size.ts";

/**
 * Fills `container` with the tree below `path`. `isArray(dir)` says whether
 * a directory is a Zarr array; picking one calls `onPick(dir)`.
 *
 * @param fs the dataset
 * @param container where the lists go
 * @param path the directory to show
 * @param isArray whether a directory is a Zarr array
 * @param onPick called with an array's path when it is picked
 */
export async function renderTree(
  fs: RepoFs,
  container: HTMLElement,
  path: string,
  isArray: (dir: string) => boolean,
  onPick: (dir: string) => void,
): Promise<void> {
  // Lists to fill, kept here, not on the stack: a path may be thousands of levels deep.
  const pending: [HTMLElement, string][] = [[container, path]];
  for (let next; (next = pending.pop()) !== undefined;) {
    const [into, dir] = next;
    const list = document.createElement("ul");
    for (const entry of await fs.ls(dir)) {
      const item = document.createElement("li");
      const name = entry.name.slice(entry.name.lastIndexOf("/") + 1);
      if (entry.type === "file") {
        item.textContent = `${name} `;
        const small = document.createElement("small");
        small.textContent = humanSize(entry.size);
        item.append(small);
      } else {
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = `${name}/`;
        details.append(summary);
        if (isArray(entry.name)) {
          const pick = document.createElement("button");
          pick.type = "button";
          pick.textContent = "show";
          pick.addEventListener("click", () => onPick(entry.name));
          summary.append(" ", pick);
        } else details.open = dir === "";
        pending.push([details, entry.name]);
        item.append(details);
      }
      list.append(item);
    }
    into.append(list);
  }
}
