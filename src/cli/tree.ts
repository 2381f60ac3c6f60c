/**
 * The `tree` command's data and drawing: a directory read level by level
 * with `ls`, then drawn with box characters or handed out as nested JSON.
 *
 * @module
 */

import { baseName } from "../tree/paths.ts";
import type { RepoFs } from "../repo_fs.ts";
import type { FileInfo } from "../base/types.ts";
import { accessNote, formatSize } from "./format.ts";
import { displayPath } from "./io.ts";

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
  fs: RepoFs,
  path: string,
  maxdepth = Infinity,
): Promise<TreeNode> {
  const top: TreeNode = await fs.info(path);
  const fill = async (node: TreeNode, depth: number): Promise<void> => {
    if (node.type !== "directory" || depth > maxdepth) return;
    node.children = await fs.ls(node.name);
    for (const child of node.children) await fill(child, depth + 1);
  };
  await fill(top, 1);
  return top;
}

/** Draws a tree as `tree(1)` does, with file sizes, and a closing count. */
export function drawTree(root: TreeNode): string[] {
  const lines = [label(root, root.name === "" ? "." : root.name)];
  const count = root.type === "file"
    ? { directories: 0, files: 1, bytes: root.size ?? 0 }
    : { directories: 0, files: 0, bytes: 0 };
  const walk = (node: TreeNode, indent: string) => {
    const children = node.children ?? [];
    children.forEach((child, i) => {
      const last = i === children.length - 1;
      lines.push(
        `${indent}${last ? "└── " : "├── "}${
          label(child, baseName(child.name))
        }`,
      );
      if (child.type === "directory") {
        count.directories++;
        walk(child, indent + (last ? "    " : "│   "));
      } else {
        count.files++;
        count.bytes += child.size ?? 0;
      }
    });
  };
  walk(root, "");
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
