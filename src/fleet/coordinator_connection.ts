/**
 * The connection to a coordinator (a Redis server): opened at the first
 * use, kept while anything uses it, closed when the last use ends (so a
 * `RepoFs` needs no `close()` and a process with nothing to do exits). The
 * Redis client (`@redis/client`, from npm) is imported then, so processes
 * without a coordinator, and browsers, never load it.
 *
 * A coordinator that cannot be reached, drops the connection or does not
 * answer within {@linkcode COMMAND_TIMEOUT_MS} is lost for good: every
 * command in flight and every later one rejects with a
 * {@linkcode CoordinatorError}. Nothing reconnects behind the caller's back,
 * because leases held through the lost connection may since have been given
 * to other processes.
 *
 * @module
 */

import { errorMessage } from "../base/errors.ts";
import { CoordinatorError, withoutCredentials } from "./coordinator_error.ts";

/** The longest a command may wait for its answer before the coordinator counts as lost. */
export const COMMAND_TIMEOUT_MS = 5_000;

/**
 * The Redis client, imported by a name no module graph sees: the core never
 * loads it, and npm users of the fleet install it themselves.
 */
const REDIS_CLIENT = "Deno" in globalThis
  ? "npm:@redis/client@^5.12.1"
  : "@redis/client";

/** What is used of `@redis/client`'s client. */
interface RedisClient {
  readonly isOpen: boolean;
  eval(
    script: string,
    options: { keys: string[]; arguments: string[] },
  ): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  on(event: "error", listener: (error: unknown) => void): unknown;
  connect(): Promise<unknown>;
}

/**
 * `redis://host:port` (or `rediss://`, with a user, password or database)
 * checked; anything else is a `TypeError`.
 */
export function checkCoordinatorUrl(url: unknown): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(String(url));
  } catch {
    // reported below
  }
  if (
    typeof url !== "string" || parsed === undefined ||
    !["redis:", "rediss:"].includes(parsed.protocol) || parsed.hostname === ""
  ) {
    throw new TypeError(
      `coordinator must be a redis://host:port URL, got ${
        JSON.stringify(typeof url === "string" ? withoutCredentials(url) : url)
      }`,
    );
  }
  return url;
}

/** The connection to one coordinator, shared by overlapping uses. */
export class CoordinatorConnection {
  /** The coordinator's URL. */
  readonly url: string;
  #client?: Promise<RedisClient>;
  #users = 0;
  #lost?: CoordinatorError;

  /** @param url the coordinator, checked by {@linkcode checkCoordinatorUrl} */
  constructor(url: string) {
    this.url = url;
  }

  /**
   * Runs `task` with a way to run Lua scripts on the coordinator; the
   * connection stays open until `task` and every overlapping use end.
   * Rejects with a {@linkcode CoordinatorError} once the coordinator is lost.
   */
  async use<T>(task: (evaluate: Evaluate) => Promise<T>): Promise<T> {
    if (this.#lost) throw this.#lost;
    this.#users++;
    try {
      return await task((script, keys, args) =>
        this.#evaluate(script, keys, args)
      );
    } finally {
      if (--this.#users === 0) await this.#close();
    }
  }

  async #evaluate(
    script: string,
    keys: string[],
    args: string[],
  ): Promise<unknown> {
    if (this.#lost) throw this.#lost;
    try {
      const client = await (this.#client ??= this.#connect());
      return await client.eval(script, { keys, arguments: args });
    } catch (error) {
      throw this.#lose(error);
    }
  }

  async #connect(): Promise<RedisClient> {
    const { createClient } = await import(REDIS_CLIENT) as {
      createClient(options: object): RedisClient;
    };
    const client = createClient({
      url: this.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: COMMAND_TIMEOUT_MS },
      socket: { reconnectStrategy: false, connectTimeout: COMMAND_TIMEOUT_MS },
    });
    client.on("error", (error) => this.#lose(error));
    const connecting = client.connect();
    connecting.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new CoordinatorError(
              this.url,
              `no answer within ${COMMAND_TIMEOUT_MS} ms of connecting`,
            ),
          ),
        COMMAND_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([connecting, silent]);
    } catch (error) {
      client.destroy();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  /** Marks the coordinator lost (once) and drops the connection. */
  #lose(error: unknown): CoordinatorError {
    if (!this.#lost) {
      const reason = errorMessage(error);
      this.#lost = error instanceof CoordinatorError
        ? error
        : new CoordinatorError(this.url, reason || "no answer", {
          cause: error,
        });
      this.#client?.then((client) => {
        if (client.isOpen) client.destroy();
      }, () => {});
    }
    return this.#lost;
  }

  async #close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    const open = await client?.catch(() => undefined);
    if (open?.isOpen) await open.close().catch(() => open.destroy());
  }
}

/** Runs a Lua script with `keys` and `args` on the coordinator. */
export type Evaluate = (
  script: string,
  keys: string[],
  args: string[],
) => Promise<unknown>;
