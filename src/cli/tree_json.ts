/**
 * The `tree --json` text: what `JSON.stringify(root, null, 2)` gives, written
 * without recursion and with the indent bounded, so that a tree thousands of
 * levels deep neither overflows the stack nor grows with the square of its
 * depth.
 *
 * @module
 */

import type { TreeNode } from "./tree.ts";
import { entryJson } from "./entry_json.ts";

/** Nesting levels indented; deeper ones keep the indent of the last. */
const INDENTED_LEVELS = 16;

/**
 * A tree as indented JSON, children last in each node.
 */
export function treeJson(root: TreeNode): string {
  const parts: string[] = [];
  const open: { children: TreeNode[]; next: number; pad: string }[] = [];
  let node: TreeNode | undefined = root;
  let pad = "";
  for (;;) {
    if (node !== undefined) {
      const { children, ...fields } = node;
      const text = JSON.stringify(entryJson(fields), null, 2).replaceAll(
        "\n",
        `\n${pad}`,
      );
      if (children === undefined) {
        parts.push(text);
      } else {
        // The fields without their closing brace, then the children.
        parts.push(
          `${text.slice(0, -(pad.length + 2))},\n${pad}  "children": [`,
        );
        if (children.length === 0) parts.push(`]\n${pad}}`);
        else open.push({ children, next: 0, pad });
      }
    }
    const frame = open.at(-1);
    if (frame === undefined) return parts.join("");
    if (frame.next === frame.children.length) {
      parts.push(`\n${frame.pad}  ]\n${frame.pad}}`);
      open.pop();
      node = undefined;
      continue;
    }
    pad = open.length < INDENTED_LEVELS ? `${frame.pad}    ` : frame.pad;
    parts.push(`${frame.next > 0 ? "," : ""}\n${pad}`);
    node = frame.children[frame.next++];
  }
}
