/**
 * The check every dataset path passes before `get` writes it to disk. A
 * listing comes from a server, and a hostile one can name files like
 * `../../.bashrc`, `/etc/passwd`, `C:\Windows\x` or `a/<ESC>[2J`. A path is
 * refused when its text could reach outside the output folder on any
 * platform, and a path that passes is resolved against the real (symlink
 * free) output folder, walking every existing directory on the way, so that
 * a symlink inside the output folder cannot lead a write outside it either.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { keyProblem } from "../tree/paths.ts";
import { errorMessage } from "../base/errors.ts";
import { createTemporary, temporaryName } from "../download/file_download.ts";
import { checkPermissions } from "../download/folder_access.ts";
import { shortPath } from "../base/short_path.ts";

const CONTROL = /\p{Cc}/u;
const DRIVE_LETTER = /^[A-Za-z]:/;
/** The longest name (one path segment) file systems take, in UTF-8 bytes. */
const LONGEST_NAME_BYTES = 255;
/** The longest path the system takes, in bytes (PATH_MAX less its NUL). */
const LONGEST_PATH_BYTES = Deno.build.os === "darwin" ? 1023 : 4095;
const encoder = new TextEncoder();

/** A dataset path that `get` refuses to write. */
export class UnsafePathError extends Error {
  /** The dataset path as listed. */
  readonly path: string;
  /** Why it is refused. */
  readonly reason: string;
  /**
   * Makes the error for one refused path.
   * @param path the dataset path
   * @param reason why it is refused
   */
  constructor(path: string, reason: string) {
    super(`refused ${JSON.stringify(shortPath(path))}: ${reason}`);
    this.name = "UnsafePathError";
    this.path = path;
    this.reason = reason;
  }
}

/**
 * Why a dataset path cannot be used as a relative file path, or `undefined`
 * when its text is safe: it must be non-empty, must not start with `/`, and
 * must have no backslash, no control character (NUL included), no empty,
 * `.` or `..` segment, no segment starting with a drive letter (`C:`), and
 * no name longer than file systems take (255 bytes): such a file would be
 * downloaded whole for nothing.
 */
export function unsafePathReason(path: string): string | undefined {
  if (path.includes("\\")) return "it has a backslash";
  if (CONTROL.test(path)) return "it has a control character";
  const problem = keyProblem(path);
  if (problem !== undefined) return problem;
  const segments = path.split("/");
  if (segments.some((segment) => DRIVE_LETTER.test(segment))) {
    return "it has a drive letter";
  }
  for (const segment of segments) {
    const bytes = encoder.encode(segment).byteLength;
    if (bytes > LONGEST_NAME_BYTES) {
      return `it has a name of ${bytes} bytes, longer than file systems take (${LONGEST_NAME_BYTES})`;
    }
  }
  return undefined;
}

/** Whether `path` is `root` or below it; both absolute. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" ||
    (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Where dataset paths land below one output folder. Create it with
 * {@linkcode OutputRoot.open}, which resolves the folder's own symlinks.
 */
export class OutputRoot {
  /** The output folder, absolute and free of symlinks. */
  readonly path: string;
  /** Directories already checked (and created) during this run: their real paths. */
  readonly #checked = new Map<string, string>();
  /** Each real target handed out, and the dataset path it was handed out for. */
  readonly #claimed = new Map<string, string>();

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Creates the folder if needed, checks that files can be written and
   * removed in it (in Deno, that the process has the permissions, named
   * by their flags), and resolves it to its real path.
   * @param dir the output folder as the user gave it
   */
  static async open(dir: string): Promise<OutputRoot> {
    checkPermissions(dir);
    try {
      await Deno.mkdir(dir, { recursive: true });
      const real = await Deno.realPath(dir);
      // Written and removed: a folder that cannot be written fails here, once.
      await Deno.remove(await createTemporary(join(real, "probe")));
      return new OutputRoot(real);
    } catch (error) {
      throw new Error(
        `the output folder ${dir} cannot be made or used: ${
          errorMessage(error)
        }`,
        { cause: error },
      );
    }
  }

  /**
   * Where a dataset path lands below the root, its text checked as
   * {@linkcode OutputRoot.prepare} checks it; nothing on disk is looked at
   * or made. Throws {@linkcode UnsafePathError} for a path it refuses.
   * @param path the dataset path
   */
  target(path: string): string {
    const reason = unsafePathReason(path);
    if (reason !== undefined) throw new UnsafePathError(path, reason);
    const target = join(this.path, path);
    if (!isInside(this.path, target)) {
      throw new UnsafePathError(path, "it resolves outside the output folder");
    }
    // Its temporary name beside it may be the longer of the two.
    const bytes = Math.max(
      encoder.encode(target).byteLength,
      encoder.encode(temporaryName(target)).byteLength,
    );
    if (bytes > LONGEST_PATH_BYTES) {
      throw new UnsafePathError(
        path,
        `its local path would be ${bytes} bytes, longer than this system takes (${LONGEST_PATH_BYTES})`,
      );
    }
    return target;
  }

  /**
   * The absolute target of a dataset path: checked with
   * {@linkcode unsafePathReason}, resolved below the root, refused when
   * longer than the system takes, every existing
   * directory on the way resolved through its symlinks and found inside the
   * root, missing directories created, and the result checked once more.
   * A target that is, on disk, the target of another dataset path (through
   * a symlink inside the root) is refused as well: one file would hold the
   * last of two. Throws {@linkcode UnsafePathError} for a path it refuses.
   * @param path the dataset path
   */
  async prepare(path: string): Promise<string> {
    const target = this.target(path);
    const parent = dirname(target);
    let realParent = this.#checked.get(parent);
    if (realParent === undefined) {
      await this.#checkExisting(path, parent);
      await Deno.mkdir(parent, { recursive: true });
      realParent = await this.#checkReal(path, parent);
      this.#checked.set(parent, realParent);
    }
    const real = join(realParent, basename(target));
    const other = this.#claimed.get(real);
    if (other !== undefined && other !== path) {
      throw new UnsafePathError(
        path,
        `it would be written to the same file as ${
          JSON.stringify(other)
        } (${real})`,
      );
    }
    this.#claimed.set(real, path);
    return target;
  }

  /** Walks the directories from the root to `parent` while they exist. */
  async #checkExisting(path: string, parent: string): Promise<void> {
    const steps = relative(this.path, parent).split(sep).filter(Boolean);
    let dir = this.path;
    for (const step of steps) {
      dir = join(dir, step);
      if (this.#checked.has(dir)) continue;
      try {
        await this.#checkReal(path, dir);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
        const stat = await lstatOrNull(dir);
        if (stat === null) return;
        if (stat.isSymlink) {
          throw new UnsafePathError(path, `${dir} is a dangling symlink`);
        }
        // Made by a concurrent call in between: check it as it is now.
        await this.#checkReal(path, dir);
      }
    }
  }

  async #checkReal(path: string, dir: string): Promise<string> {
    const real = await Deno.realPath(dir);
    if (!isInside(this.path, real)) {
      throw new UnsafePathError(
        path,
        `${dir} leads outside the output folder (to ${real})`,
      );
    }
    return real;
  }
}

/** What is at `path` (a symlink itself, not followed), or `null`. */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
