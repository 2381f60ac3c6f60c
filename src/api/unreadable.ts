/**
 * Why a dataset's listing cannot be had, told with what one more request
 * finds out: a deaccessioned dataset or version (and the versions that remain
 * readable), or a persistent id that belongs to a file, not a dataset.
 *
 * @module
 */

import { DeaccessionedError, RepoHttpError } from "../base/errors.ts";

/** What these explanations ask of the repository (the `RepoApi` that calls them). */
interface VersionsAndFiles {
  versionList(pid: string, signal?: AbortSignal): Promise<unknown[]>;
  fileByPid(pid: string, signal?: AbortSignal): Promise<unknown>;
}

/**
 * The {@linkcode DeaccessionedError} for a dataset (`version` undefined) or
 * a version, naming the versions that remain readable: one request for the
 * list of versions. When that request fails, the error says so instead.
 */
export async function deaccessionedError(
  api: VersionsAndFiles,
  pid: string,
  version: string | undefined,
  signal?: AbortSignal,
): Promise<DeaccessionedError> {
  try {
    const versions = await api.versionList(pid, signal);
    return new DeaccessionedError(pid, version, readableVersions(versions));
  } catch (error) {
    signal?.throwIfAborted();
    return new DeaccessionedError(pid, version, undefined, { cause: error });
  }
}

/**
 * The versions of a list of versions that can still be read, as the
 * `version` option takes them: numbered ones oldest first, then `:draft`
 * when there is a draft. Deaccessioned versions are left out.
 */
export function readableVersions(versions: unknown[]): string[] {
  const numbered: [number, number][] = [];
  let draft = false;
  for (const version of versions) {
    const { versionNumber, versionMinorNumber, versionState } =
      (version ?? {}) as Record<string, unknown>;
    if (versionState === "DEACCESSIONED") continue;
    if (
      Number.isSafeInteger(versionNumber) &&
      Number.isSafeInteger(versionMinorNumber)
    ) {
      numbered.push([versionNumber as number, versionMinorNumber as number]);
    } else if (versionState === "DRAFT") {
      draft = true;
    }
  }
  numbered.sort(([a, b], [c, d]) => a - c || b - d);
  const names = numbered.map(([major, minor]) => `${major}.${minor}`);
  return [...new Set(names), ...(draft ? [":draft"] : [])];
}

/**
 * `error`, or, when it is the dataset endpoint's 404 and the persistent id
 * turns out to be a file's (one request to `/api/files/:persistentId/`), a
 * {@linkcode RepoHttpError} 404 saying so, with the file's name and, when
 * the answer has it, its dataset's persistent id. Whatever else that
 * request gives, `error` stands.
 */
export async function explainNotFound(
  api: VersionsAndFiles,
  pid: string,
  error: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  if (!(error instanceof RepoHttpError) || error.status !== 404) return error;
  let file: Record<string, unknown>;
  try {
    file = (await api.fileByPid(pid, signal) ?? {}) as Record<string, unknown>;
  } catch {
    signal?.throwIfAborted();
    return error;
  }
  const dataFile = (file.dataFile ?? {}) as Record<string, unknown>;
  const name = [file.label, dataFile.filename].find((value) =>
    typeof value === "string" && value !== ""
  );
  const dataset = (file.datasetVersion as Record<string, unknown> | undefined)
    ?.datasetPersistentId;
  const detail = `${pid} is the persistent id of the file${
    name === undefined ? "" : ` ${JSON.stringify(name)}`
  }, not of a dataset${
    typeof dataset === "string" && dataset !== ""
      ? `; the file's dataset is ${dataset}`
      : ""
  }`;
  return new RepoHttpError(404, error.url, detail, { cause: error });
}
