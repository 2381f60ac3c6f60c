/**
 * Near names for a path that is not there: the entries of the deepest
 * folder that exists whose name differs from the missing one only by case
 * or by one edit (`Tables` → `tables`, `tabels` → no, `table` → `tables`).
 *
 * @module
 */

import type { Browsable } from "./archive_path.ts";

/** Most names a hint offers. */
const MOST = 3;

/**
 * Paths like `path` that exist: its first missing segment replaced by a
 * near name of the folder that holds it (the rest of `path` kept when
 * that exists too). Empty when there is none, or `path` exists.
 */
export async function nearPaths(
  fs: Pick<Browsable, "ls" | "exists">,
  path: string,
): Promise<string[]> {
  const segments = path.split("/").filter((s) => s !== "");
  let folder = "";
  for (const [i, segment] of segments.entries()) {
    const entries = await fs.ls(folder).catch(() => []);
    const names = entries.map((e) => e.name.slice(e.name.lastIndexOf("/") + 1));
    const under = (name: string) => folder === "" ? name : `${folder}/${name}`;
    // `data.zip!` opens the archive `data.zip`.
    if (names.includes(segment.replace(/!$/, ""))) {
      folder = under(segment);
      continue;
    }
    const rest = segments.slice(i + 1).join("/");
    const near = names.filter((name) => isNear(name, segment)).sort()
      .slice(0, MOST).map(under);
    return await Promise.all(near.map(async (found) => {
      const whole = rest === "" ? found : `${found}/${rest}`;
      return whole === found || await fs.exists(whole).catch(() => false)
        ? whole
        : found;
    }));
  }
  return [];
}

/** `a` and `b` equal but for case, or one insertion, deletion or substitution apart (case ignored). */
export function isNear(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x === y) return a !== b;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  const skip = short.length === long.length ? 1 : 0;
  return short.slice(i + skip) === long.slice(i + 1);
}
