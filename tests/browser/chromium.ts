/**
 * Debian's `chromium`, headless, driven through the DevTools protocol: start
 * it on a new profile, open pages, evaluate in them, take screenshots, and
 * end it with nothing left behind (its processes and its profile).
 *
 * @module
 */

import { Cdp } from "./cdp.ts";

/** The browser's executable, as Debian installs it (on `PATH`). */
const EXECUTABLE = "chromium";

/** How long the browser may take to start or to end. */
const START_MS = 30_000;

/** Flags for a quiet headless run that reaches nothing but 127.0.0.1. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--remote-debugging-port=0",
];

/**
 * A running headless Chromium.
 *
 * @example
 * ```ts ignore
 * import { launchChromium } from "./chromium.ts";
 * await using browser = await launchChromium();
 * if (browser) {
 *   const page = await browser.open("http://127.0.0.1:8000/");
 *   console.log(await page.evaluate("document.title"));
 * }
 * ```
 */
export class Chromium implements AsyncDisposable {
  private constructor(
    readonly process: Deno.ChildProcess,
    readonly cdp: Cdp,
    readonly profile: string,
    readonly stderrDone: Promise<void>,
  ) {}

  /**
   * Starts the browser, or resolves `undefined` when `chromium` is not
   * installed.
   */
  static async launch(): Promise<Chromium | undefined> {
    const profile = await Deno.makeTempDir({ prefix: "repo-fs-chromium-" });
    let process: Deno.ChildProcess;
    try {
      process = new Deno.Command(EXECUTABLE, {
        args: [...FLAGS, `--user-data-dir=${profile}`, "about:blank"],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      await Deno.remove(profile, { recursive: true });
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    try {
      const { url, rest } = await devToolsUrl(process);
      return new Chromium(process, await Cdp.connect(url), profile, rest);
    } catch (error) {
      try {
        process.kill("SIGKILL");
      } catch {
        // it has ended already
      }
      await process.status;
      await Deno.remove(profile, { recursive: true });
      throw error;
    }
  }

  /** Opens `url` in a new tab and resolves once it has loaded. */
  async open(url: string): Promise<Page> {
    const { targetId } = await this.cdp.send<{ targetId: string }>(
      "Target.createTarget",
      { url: "about:blank" },
    );
    const { sessionId } = await this.cdp.send<{ sessionId: string }>(
      "Target.attachToTarget",
      { targetId, flatten: true },
    );
    const page = new Page(this.cdp, sessionId);
    await page.command("Page.enable");
    await page.command("Runtime.enable");
    await page.goto(url);
    return page;
  }

  /** Ends the browser and removes its profile. */
  async close(): Promise<void> {
    await this.cdp.send("Browser.close").catch(() => {});
    await this.cdp.close();
    const ended = await Promise.race([
      this.process.status.then(() => true),
      new Promise<false>((resolve) => {
        const timer = setTimeout(() => resolve(false), START_MS);
        this.process.status.finally(() => clearTimeout(timer));
      }),
    ]);
    if (!ended) {
      this.process.kill("SIGKILL");
      await this.process.status;
    }
    await this.stderrDone;
    await Deno.remove(this.profile, { recursive: true });
  }

  /** Same as {@linkcode Chromium.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** One tab, attached as a flat session. */
export class Page {
  /** @param cdp the browser's connection @param sessionId the tab's session */
  constructor(readonly cdp: Cdp, readonly sessionId: string) {}

  /** Sends a command to this tab. */
  command<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<T> {
    return this.cdp.send<T>(method, params, this.sessionId);
  }

  /** Navigates and resolves once the load event fired. */
  async goto(url: string): Promise<void> {
    const loaded = this.cdp.waitFor("Page.loadEventFired", this.sessionId);
    const { errorText } = await this.command<{ errorText?: string }>(
      "Page.navigate",
      { url },
    );
    if (errorText) throw new Error(`could not open ${url}: ${errorText}`);
    await loaded;
  }

  /**
   * The value of `expression` in the page (awaited when it is a promise);
   * an exception in the page is thrown here with its description.
   */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.command<{
      result: { value?: unknown };
      exceptionDetails?: {
        text: string;
        exception?: { description?: string };
      };
    }>("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) {
      throw new Error(
        `in the page: ${
          exceptionDetails.exception?.description ?? exceptionDetails.text
        }\n${this.cdp.log.join("\n")}`,
      );
    }
    return result.value as T;
  }

  /**
   * Evaluates `expression` until it is truthy, every 100 ms, and gives up
   * after `timeoutMs` with the page's console lines.
   */
  async waitUntil<T>(expression: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const value = await this.evaluate<T>(expression);
      if (value) return value;
      if (Date.now() > deadline) {
        throw new Error(
          `gave up after ${timeoutMs} ms waiting for ${expression}\n${
            this.cdp.log.join("\n")
          }`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A PNG of the visible page. */
  async screenshot(): Promise<Uint8Array> {
    const { data } = await this.command<{ data: string }>(
      "Page.captureScreenshot",
      { format: "png" },
    );
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  }
}

/**
 * Reads the browser's stderr until it names its DevTools URL; the rest of
 * stderr is drained (and dropped) until the browser ends, so it never
 * blocks on a full pipe.
 */
async function devToolsUrl(
  process: Deno.ChildProcess,
): Promise<{ url: string; rest: Promise<void> }> {
  const lines = process.stderr
    .pipeThrough(new TextDecoderStream())
    .getReader();
  const seen: string[] = [];
  const timer = setTimeout(() => process.kill("SIGKILL"), START_MS);
  let buffer = "";
  try {
    while (true) {
      const { value, done } = await lines.read();
      if (done) {
        throw new Error(
          `chromium ended without a DevTools URL:\n${seen.join("")}`,
        );
      }
      seen.push(value);
      buffer += value;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(buffer);
      if (match) {
        const rest = (async () => {
          while (!(await lines.read()).done);
        })();
        return { url: match[1], rest };
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
