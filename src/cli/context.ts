/**
 * What every command gets: the parsed command line, the output, and the
 * dataset built from the global options (dataset URL or host and pid, token and its header,
 * collections path, version, HEAD limit, request timeout, URL cache
 * directory, coordinator, logger).
 *
 * @module
 */

import { redisCoordinator } from "../fleet/redis_coordinator.ts";
import { type RepoNames, repositoryNames } from "../api/repo_api.ts";
import { DEFAULT_TIMEOUT_MS, RepoFs } from "../repo_fs.ts";
import {
  resolveDatasetUrl,
  type ResolvedDatasetUrl,
} from "../api/dataset_url.ts";
import { RetryPolicy } from "../api/retry.ts";
import type { TabularView } from "../base/types.ts";
import { httpTrimmed } from "../base/secrets.ts";
import { errorMessage } from "../base/errors.ts";
import {
  type CommandLine,
  integerOption,
  stringOption,
  UsageError,
} from "./args.ts";
import type { Output } from "./io.ts";
import { commandTarget } from "./target.ts";

/** The environment variables the token is read from, the first set winning. */
const TOKEN_VARIABLES = ["REPO_FS_TOKEN", "REPO_API_TOKEN"];
/** The environment variable the token's header is read from when `--token-header` is not given. */
const TOKEN_HEADER_VARIABLE = "REPO_FS_TOKEN_HEADER";
/** The environment variable the DOI and Handle resolver is read from when `--resolver` is not given. */
const RESOLVER_VARIABLE = "REPO_FS_RESOLVER";
/** The environment variable the coordinator is read from when `--coordinator` is not given. */
const COORDINATOR_VARIABLE = "REPO_FS_COORDINATOR";

/** One run of one command. */
export class Context {
  /** The parsed command line. */
  readonly line: CommandLine;
  /** Where output goes. */
  readonly out: Output;
  /** `--json` was given. */
  readonly json: boolean;
  /** `--verbose` was given. */
  readonly verbose: boolean;
  #token?: Promise<string | undefined>;
  #file?: string;
  /** The repository a DOI or Handle given as the dataset resolved to. */
  #resolvedHost?: string;

  /**
   * @param line the parsed command line
   * @param out where output goes
   */
  constructor(line: CommandLine, out: Output) {
    this.line = line;
    this.out = out;
    this.json = line.values.json === true;
    this.verbose = line.values.verbose === true;
  }

  /** The command's `index`th argument. */
  arg(index: number): string | undefined {
    return this.line.positionals[index];
  }

  /**
   * The repository: `--host`, or the host of `--dataset`, else of the
   * environment (see {@linkcode commandTarget}); for a DOI or Handle, the
   * host it resolved to once {@linkcode Context.dataset} asked.
   * @throws {UsageError} when there is none
   */
  host(): string {
    const host = this.#resolvedHost ?? commandTarget(this.line, readEnv).host;
    if (host === undefined) {
      const name = this.line.command?.name;
      throw new UsageError(
        `${name} needs --host: a DOI or Handle names a dataset, not its repository`,
        name,
      );
    }
    return host;
  }

  /**
   * The file a file page given as the dataset names, once
   * {@linkcode Context.dataset} resolved it.
   */
  selectedFile(): string | undefined {
    return this.#file;
  }

  /**
   * `--timeout-ms`: how long a request may go without progress.
   * @throws {UsageError} when it is not an integer >= 1
   */
  timeoutMs(): number | undefined {
    return integerOption(this.line, "timeout-ms", { min: 1 });
  }

  /**
   * `--token-header` (else `REPO_FS_TOKEN_HEADER`) and `--collections-path`,
   * defaults filled in.
   * @throws {UsageError} when one cannot be a header name or a path
   */
  names(): RepoNames {
    try {
      return repositoryNames({
        tokenHeader: stringOption(this.line, "token-header") ??
          (readEnv(TOKEN_HEADER_VARIABLE) || undefined),
        collectionsPath: stringOption(this.line, "collections-path"),
      });
    } catch (error) {
      if (error instanceof TypeError) {
        throw new UsageError(error.message, this.line.command?.name);
      }
      throw error;
    }
  }

  /**
   * The API token: the contents of `--token-file` without its trailing
   * newline, else `REPO_FS_TOKEN`, else `REPO_API_TOKEN`, else none. The token is hidden from
   * every later stderr line. It is read once per run.
   */
  token(): Promise<string | undefined> {
    this.#token ??= this.#readToken();
    return this.#token;
  }

  async #readToken(): Promise<string | undefined> {
    const file = stringOption(this.line, "token-file");
    let token: string | undefined;
    if (file !== undefined) {
      token = httpTrimmed(
        await Deno.readTextFile(file).catch((error) => {
          throw new Error(
            `the token file ${file} cannot be read: ${errorMessage(error)}`,
            { cause: error },
          );
        }),
      );
      if (token === "") throw new Error(`the token file ${file} is empty`);
    } else {
      const set = TOKEN_VARIABLES.map((name) => readEnv(name))
        .find((value) => value);
      token = httpTrimmed(set ?? "") || undefined;
    }
    if (token !== undefined) this.out.hide(token);
    return token;
  }

  /**
   * The dataset of `--host` and `--pid`, with the global options applied.
   * @throws {UsageError} for a missing or malformed host or pid
   */
  async dataset(): Promise<RepoFs> {
    const target = commandTarget(this.line, readEnv);
    const name = this.line.command?.name;
    const headConcurrency = integerOption(this.line, "head-concurrency", {
      min: 1,
    });
    const timeoutMs = this.timeoutMs();
    const retries = integerOption(this.line, "retries", { min: 0 });
    const maxBytes = integerOption(this.line, "max-bytes", { min: 1 });
    const names = this.names();
    const tabular = stringOption(this.line, "tabular") as
      | TabularView
      | undefined;
    const urlCacheDir = stringOption(this.line, "url-cache-dir");
    const resolver = stringOption(this.line, "resolver") ??
      (readEnv(RESOLVER_VARIABLE) || undefined);
    const coordinator = stringOption(this.line, "coordinator") ??
      (readEnv(COORDINATOR_VARIABLE) || undefined);
    const token = await this.token();
    try {
      const at: Partial<ResolvedDatasetUrl> & { host: string } =
        target.url === undefined ? target : await resolveDatasetUrl(
          target.url,
          {
            token,
            ...names,
            resolver,
            timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
            retry: new RetryPolicy(
              retries === undefined ? {} : { retries },
              this.verbose ? this.out.logger() : undefined,
            ),
          },
        );
      const { host, pid } = at;
      const version = stringOption(this.line, "dataset-version") ?? at.version;
      this.#resolvedHost = host;
      this.#file = at.file;
      if (pid === undefined) {
        throw new UsageError(`${name} needs --pid (or REPO_FS_PID)`, name);
      }
      return new RepoFs({
        host,
        pid,
        token,
        ...names,
        ...(headConcurrency === undefined ? {} : { headConcurrency }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(retries === undefined ? {} : { retry: { retries } }),
        ...(maxBytes === undefined ? {} : { maxBytes }),
        ...(version === undefined ? {} : { version }),
        ...(tabular === undefined ? {} : { tabular }),
        ...(urlCacheDir === undefined ? {} : { urlCacheDir }),
        ...(coordinator === undefined
          ? {}
          : { coordinator: redisCoordinator(coordinator) }),
        ...(this.verbose ? { logger: this.out.logger() } : {}),
      });
    } catch (error) {
      if (error instanceof TypeError) {
        throw new UsageError(error.message, name);
      }
      throw error;
    }
  }
}

/**
 * The command's path arguments, or the file a `--dataset` file page names
 * (once the dataset is resolved).
 * @throws {UsageError} when there is neither
 */
export function selectedPaths(context: Context, what: string): string[] {
  const { positionals, command } = context.line;
  if (positionals.length > 0) return positionals;
  const file = context.selectedFile();
  if (file !== undefined) return [file];
  throw new UsageError(
    `${command?.name}: missing argument ${what}`,
    command?.name,
  );
}

/** An environment variable, or `undefined` when unset or not readable. */
function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return undefined;
    throw error;
  }
}
