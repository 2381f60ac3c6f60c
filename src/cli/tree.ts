/**
 * The `tree` command's data and drawing: a directory read level by level
 * with `ls`, then drawn with box characters or handed out as nested JSON.
 *
 * @module
 */

import { baseName } from "../tree/paths.ts";
import type { Browsable } from "./archive_path.ts";
import type { FileInfo } from "../base/types.ts";
import { accessNote, formatSize } from "./format.ts";
import { displayPath } from "./io.ts";

/**
 * Levels drawn with their own indent; deeper lines keep the indent of the
 * last of them and name their level, so that a line's length stays bounded.
 */
const DRAWN_LEVELS = 32;

/** An entry with, for a directory that was read, its children. */
export interface TreeNode extends FileInfo {
  /** The entries below a directory; absent for files and below `maxdepth`. */
  children?: TreeNode[];
}

/**
 * Reads the tree below `path` (a file gives a single node), at most
 * `maxdepth` levels deep.
 */
export async function readTree(
  fs: Pick<Browsable, "info" | "ls">,
  path: string,
  maxdepth = Infinity,
): Promise<TreeNode> {
  const top: TreeNode = await fs.info(path);
  const pending: [node: TreeNode, depth: number][] = [[top, 1]];
  for (let next; (next = pending.pop()) !== undefined;) {
    const [node, depth] = next;
    if (node.type !== "directory" || depth > maxdepth) continue;
    node.children = await fs.ls(node.name);
    for (const child of node.children) pending.push([child, depth + 1]);
  }
  return top;
}

/**
 * Draws a tree as `tree(1)` does, with file sizes, and a closing count.
 * Lines more than 32 levels deep are indented as the 32nd and start with
 * their level (`[level 40] `).
 */
export function drawTree(root: TreeNode): string[] {
  const lines = [label(root, root.name === "" ? "." : root.name)];
  const count = root.type === "file"
    ? { directories: 0, files: 1, bytes: root.size ?? 0 }
    : { directories: 0, files: 0, bytes: 0 };
  // A stack of the directories being drawn, not recursion: a listed path may
  // be thousands of levels deep.
  const open: { children: TreeNode[]; next: number; indent: string }[] = [
    { children: root.children ?? [], next: 0, indent: "" },
  ];
  for (let frame; (frame = open.at(-1)) !== undefined;) {
    if (frame.next === frame.children.length) {
      open.pop();
      continue;
    }
    const child = frame.children[frame.next++];
    const last = frame.next === frame.children.length;
    lines.push(
      `${frame.indent}${last ? "└── " : "├── "}${
        label(child, baseName(child.name))
      }`,
    );
    if (child.type === "directory") {
      count.directories++;
      const indent = open.length < DRAWN_LEVELS
        ? frame.indent + (last ? "    " : "│   ")
        : `${open[DRAWN_LEVELS - 1].indent}[level ${open.length + 1}] `;
      open.push({ children: child.children ?? [], next: 0, indent });
    } else {
      count.files++;
      count.bytes += child.size ?? 0;
    }
  }
  const { directories, files, bytes } = count;
  lines.push(
    "",
    `${plural(directories, "directory", "directories")}, ${
      plural(files, "file", "files")
    }, ${formatSize(bytes)}`,
  );
  return lines;
}

function label(node: TreeNode, name: string): string {
  if (node.type === "directory") {
    return `${displayPath(name)}${name === "." ? "" : "/"}`;
  }
  const note = accessNote(node);
  return `${displayPath(name)}  (${formatSize(node.size)}${
    note === undefined ? "" : `, ${note}`
  })`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
