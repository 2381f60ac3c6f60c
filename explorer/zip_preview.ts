/**
 * A zip archive: its members as a list, and a member's preview by the same
 * rules as a dataset's file (a zip inside a zip too).
 *
 * @module
 */

/// <reference lib="dom" />

import { zipTree } from "../zip.ts";
import type { ByteSource, ZipTree } from "../zip.ts";
import { el } from "./dom.ts";
import { humanSize } from "./human_size.ts";

/** Shows a member of `tree` in `view`. */
export type ShowMember = (
  view: HTMLElement,
  tree: ZipTree,
  member: string,
) => Promise<void>;

/** The member list of archive `path`; picking a member previews it below. */
export async function showZip(
  view: HTMLElement,
  source: ByteSource,
  path: string,
  showMember: ShowMember,
): Promise<void> {
  const tree = zipTree(source, path);
  const members = await tree.find("", { withdirs: true });
  const memberView = el("div", { class: "member" });
  const list = el("ul", {
    class: "members",
    "aria-label": `Members of ${path}`,
  });
  for (const name of members) {
    const info = await tree.info(name);
    const depth = name.split("/").length - 1;
    const item = el("li", { style: `padding-left: ${depth}rem` });
    if (info.type === "directory") item.append(`${name}/`);
    else {
      const button = el("button", { type: "button", class: "link" }, name);
      button.addEventListener(
        "click",
        () => void showMember(memberView, tree, name),
      );
      item.append(button, ` ${humanSize(info.size)}`);
    }
    list.append(item);
  }
  view.replaceChildren(
    el("p", {}, `${members.length} entries`),
    list,
    memberView,
  );
}
