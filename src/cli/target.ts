/**
 * Which dataset a command reads: `--dataset URL`, or `--host` and `--pid`,
 * else the environment's `REPO_FS_DATASET`, or `REPO_FS_HOST` and
 * `REPO_FS_PID`. The command line wins over the environment.
 *
 * @module
 */

import { parseDatasetUrl } from "../api/dataset_url.ts";
import { pidLink } from "../api/pid_resolver.ts";
import { isLoopback } from "../api/repo_api.ts";
import { type CommandLine, stringOption, UsageError } from "./args.ts";

/**
 * The dataset, as the command line or the environment names it; a DOI or
 * Handle given as the URL has no host until its resolver is asked.
 */
export type Target =
  | { url: string; host?: string; pid?: undefined }
  | { url?: undefined; host: string; pid?: string };

/**
 * The target of a command line; `env` reads a variable (`undefined` when
 * unset).
 * @throws {UsageError} for `--dataset` beside `--host`/`--pid`, a URL that
 * is not a dataset's, or no host at all
 */
export function commandTarget(
  line: CommandLine,
  env: (name: string) => string | undefined,
): Target {
  const command = line.command?.name;
  const flagged = (name: string) => stringOption(line, name) || undefined;
  const [url, host, pid] = [
    flagged("dataset"),
    flagged("host"),
    flagged("pid"),
  ];
  if (url !== undefined && (host !== undefined || pid !== undefined)) {
    throw new UsageError(
      "give either --dataset or --host and --pid, not both",
      command,
    );
  }
  const fromEnv = (name: string) => env(name) || undefined;
  const chosen = url ??
    (host === undefined && pid === undefined
      ? fromEnv("REPO_FS_DATASET")
      : undefined);
  if (chosen !== undefined) {
    try {
      return pidLink(chosen) === undefined
        ? { url: chosen, host: parseDatasetUrl(chosen).host }
        : { url: chosen };
    } catch (error) {
      throw new UsageError((error as Error).message, command);
    }
  }
  const target = {
    host: host ?? fromEnv("REPO_FS_HOST"),
    pid: pid ?? fromEnv("REPO_FS_PID"),
  };
  if (
    target.host === undefined && target.pid !== undefined && pidLink(target.pid)
  ) {
    throw new UsageError(
      `${command} needs --host with --pid; or give the id alone as --dataset ${target.pid}, which its resolver turns into the dataset's page`,
      command,
    );
  }
  if (target.host === undefined) {
    throw new UsageError(
      `${command} needs --dataset URL, or --host and --pid (or REPO_FS_DATASET, REPO_FS_HOST, REPO_FS_PID)`,
      command,
    );
  }
  return { host: target.host, pid: target.pid };
}

/**
 * `did you mean http://127.0.0.1:8080?` for a host given without a scheme
 * that is a loopback address or has a port: https was tried, and local
 * servers rarely speak it. `undefined` for any other host.
 */
export function schemeHint(host: string): string | undefined {
  if (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(host) || !URL.canParse(`http://${host}`)
  ) {
    return undefined;
  }
  const url = new URL(`http://${host}`);
  return isLoopback(url) || url.port !== ""
    ? `did you mean http://${host}?`
    : undefined;
}
