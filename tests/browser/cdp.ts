/**
 * A small client of the Chrome DevTools protocol over a WebSocket: commands
 * with their answers, events, and pages attached as flat sessions.
 *
 * @module
 */

/** An event of the protocol, with the session it came from. */
interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

/** A waiter for an event that satisfies a test. */
interface EventWaiter {
  method: string;
  sessionId?: string;
  test: (params: Record<string, unknown>) => boolean;
  resolve: (params: Record<string, unknown>) => void;
}

/**
 * One DevTools connection (to the browser target).
 *
 * @example
 * ```ts ignore
 * import { Cdp } from "./cdp.ts";
 * const cdp = await Cdp.connect("ws://127.0.0.1:9222/devtools/browser/…");
 * const { product } = await cdp.send("Browser.getVersion");
 * cdp.close();
 * ```
 */
export class Cdp {
  #nextId = 1;
  readonly #answers = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  readonly #waiters = new Set<EventWaiter>();
  readonly #closed: Promise<void>;
  /** Every event's description, for a failure's message: console lines and exceptions. */
  readonly log: string[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => this.#receive(event.data));
    this.#closed = new Promise((resolve) => {
      socket.addEventListener("close", () => {
        for (const { reject } of this.#answers.values()) {
          reject(new Error("the DevTools connection closed"));
        }
        this.#answers.clear();
        resolve();
      });
    });
  }

  /** Connects to a DevTools WebSocket URL. */
  static connect(url: string): Promise<Cdp> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.addEventListener("open", () => resolve(new Cdp(socket)), {
        once: true,
      });
      socket.addEventListener(
        "error",
        () => reject(new Error(`could not connect to DevTools at ${url}`)),
        { once: true },
      );
    });
  }

  /** Sends a command (to a page when `sessionId` is given) and resolves with its result. */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<T> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#answers.set(id, {
        resolve: (value) => resolve(value as T),
        reject,
      });
      this.socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  }

  /** The next event `method` (of `sessionId`) whose parameters pass `test`. */
  waitFor(
    method: string,
    sessionId?: string,
    test: (params: Record<string, unknown>) => boolean = () => true,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.#waiters.add({ method, sessionId, test, resolve });
    });
  }

  /** Closes the connection; resolves once it is closed. */
  close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) this.socket.close();
    return this.#closed;
  }

  #receive(data: string): void {
    const message = JSON.parse(data);
    if (typeof message.id === "number") {
      const answer = this.#answers.get(message.id);
      this.#answers.delete(message.id);
      if (message.error) {
        answer?.reject(
          new Error(
            `DevTools: ${message.error.message} (${message.error.code})`,
          ),
        );
      } else answer?.resolve(message.result);
      return;
    }
    const event = message as CdpEvent;
    this.#note(event);
    for (const waiter of this.#waiters) {
      if (
        waiter.method === event.method &&
        (waiter.sessionId === undefined ||
          waiter.sessionId === event.sessionId) &&
        waiter.test(event.params)
      ) {
        this.#waiters.delete(waiter);
        waiter.resolve(event.params);
      }
    }
  }

  /** Keeps console lines and exceptions of pages for failure messages. */
  #note({ method, params }: CdpEvent): void {
    if (method === "Runtime.consoleAPICalled") {
      const args = params.args as { value?: unknown; description?: string }[];
      this.log.push(
        `console.${params.type}: ${
          args.map((a) => a.description ?? String(a.value)).join(" ")
        }`,
      );
    } else if (method === "Runtime.exceptionThrown") {
      const details = params.exceptionDetails as {
        text: string;
        exception?: { description?: string };
      };
      this.log.push(
        `exception: ${details.exception?.description ?? details.text}`,
      );
    }
  }
}
