/**
 * What a pattern that matched nothing in the dataset matches inside its zip
 * archives, and how to ask for it (`data.zip!/**\/*.csv`). Each archive
 * looked into costs a read of its central directory, so this is asked only
 * when nothing else matched, and of at most {@linkcode MOST_ARCHIVES}.
 *
 * @module
 */

import { normalizePath } from "../tree/paths.ts";
import type { Browsable } from "./archive_path.ts";
import { quotePath } from "./io.ts";

/** Most archives opened for one hint. */
const MOST_ARCHIVES = 10;
/** Most archive paths a hint names. */
const MOST_NAMED = 3;

/**
 * `; 6 members of zip archives match: "data.zip!/**\/*.csv"`, or `""` when
 * no archive of the dataset has a member matching `pattern`.
 */
export async function archiveMatches(
  fs: Pick<Browsable, "glob">,
  pattern: string,
): Promise<string> {
  let inner: string;
  try {
    inner = normalizePath(pattern);
  } catch {
    return "";
  }
  if (inner === "" || pattern.includes("!/")) return "";
  const archives = await fs.glob("**/*.[zZ][iI][pP]").catch(() => []);
  const looked = archives.slice(0, MOST_ARCHIVES);
  const counts = await Promise.all(
    looked.map((archive) =>
      fs.glob(`${archive}!/${inner}`).then((m) => m.length, () => 0)
    ),
  );
  const reach = looked.filter((_, i) => counts[i] > 0)
    .map((archive) => quotePath(`${archive}!/${inner}`));
  if (reach.length === 0) return "";
  const total = counts.reduce((a, b) => a + b, 0);
  const named = reach.slice(0, MOST_NAMED).join(", ") +
    (reach.length > MOST_NAMED ? ", …" : "");
  const some = archives.length > looked.length
    ? ` (of the first ${looked.length} of ${archives.length} archives)`
    : "";
  return `; ${total} member${total === 1 ? "" : "s"} of zip archives match${
    total === 1 ? "es" : ""
  }${some}: ${named}`;
}
