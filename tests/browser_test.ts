/**
 * repo-fs in a real browser: Debian's `chromium`, headless, driven through
 * the DevTools protocol. A harness page reads the tree, a file, a range, a
 * stream and an array on the main thread and through a pool, with the
 * emulator's redirect on and off, without a token and with one; the results
 * are compared here with the files the emulator serves, and the emulator's
 * counters say what each path cost and that the token never reached the
 * store. The demo page is checked for a drawn image on a screenshot.
 *
 * Without `chromium` on `PATH` the test is skipped, loudly.
 */

import {
  deepStrictEqual,
  match,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { decode } from "fast-png";
import { RepoFs, RepoProtocolError } from "../mod.ts";
import { type Emulator, startEmulator } from "../emulator.ts";
import { sampleDataset } from "../src/emulator/sample.ts";
import { bundleDemo } from "../demo/browser/bundle.ts";
import { serveDemo } from "../demo/browser/serve.ts";
import { Chromium, type Page } from "./browser/chromium.ts";
import { type Digest, expectedReads, READS } from "./browser/expected.ts";
import { bounded } from "./support.ts";

/** Whether `chromium` is on `PATH`. */
function chromiumInstalled(): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/chromium`).isFile;
    } catch {
      return false;
    }
  });
}

const HAS_CHROMIUM = chromiumInstalled();
if (!HAS_CHROMIUM) {
  console.warn(
    "\n!!! tests/browser_test.ts SKIPPED: chromium is not installed. !!!\n" +
      "!!! The browser path of repo-fs is NOT tested in this run;       !!!\n" +
      "!!! install it (apt-get install chromium; .ci/run does).          !!!\n",
  );
}

const TOKEN = "browser-secret-token";
/** The harness's answer to one read: the value, or the error it failed with. */
type Outcome<T> = T | { error: { name: string; message: string } };
interface Answer {
  tree: Outcome<string[]>;
  file: Outcome<Digest>;
  range: Outcome<Digest>;
  stream: Outcome<Digest>;
  array: Outcome<Digest & { shape: number[] }>;
}

/** Opens the dataset in the harness, reads everything, and closes it. */
async function readAll(
  page: Page,
  emu: Emulator,
  options: { pool: boolean; token?: string; passes?: number },
): Promise<Answer[]> {
  const spec = {
    host: emu.host,
    pid: emu.pid,
    token: options.token,
    workers: options.pool ? 2 : undefined,
  };
  const inPage = <T>(expression: string) =>
    bounded(page.evaluate<T>(expression), expression.slice(0, 40));
  await inPage(`harness.open(${JSON.stringify(spec)})`);
  const answers: Answer[] = [];
  try {
    for (let pass = 0; pass < (options.passes ?? 1); pass++) {
      answers.push(await inPage(`harness.read(${JSON.stringify(READS)})`));
    }
  } finally {
    await inPage("harness.close()");
  }
  return answers;
}

Deno.test({
  name: "browser: reads in Chromium, main thread and pool, redirect on and off",
  ignore: !HAS_CHROMIUM,
  async fn(t) {
    const files = await sampleDataset(16);
    const expected = await expectedReads(files);
    await using open = await startEmulator({ files });
    await using locked = await startEmulator({ files, token: TOKEN });
    const bundleDir = await Deno.makeTempDir({ prefix: "repo-fs-bundle-" });
    try {
      await bundleDemo(bundleDir);
      await using server = serveDemo({ emulator: open, bundleDir });
      await using browser = await Chromium.launch();
      ok(browser, "chromium is on PATH but could not be started");
      const page = await bounded(
        browser.open(`${server.url}harness.html`),
        "opening the harness page",
      );
      await page.waitUntil("typeof globalThis.harness === 'object'");

      for (const pool of [false, true]) {
        const via = pool ? "pool" : "main thread";

        await t.step(
          `${via}, redirect on: one ranged GET per file, no HEAD`,
          async () => {
            open.faults.redirect = true;
            open.resetCounters();
            const [answer] = await readAll(page, open, { pool });
            deepStrictEqual(answer, expected);
            const c = open.counters;
            strictEqual(c.heads, 0, "a browser sends no HEAD it cannot read");
            const once = c.accessGets;
            ok(
              once > 0 && once <= expected.tree.length,
              `at most one ranged GET per file, got ${once}`,
            );
            strictEqual(c.storeRequestsWithToken, 0);
            const twice = await readAll(page, open, { pool, passes: 2 });
            deepStrictEqual(twice, [expected, expected]);
            strictEqual(
              c.accessGets - once,
              once,
              "the second pass of an instance found every URL in its cache",
            );
          },
        );

        await t.step(
          `${via}, redirect off: the repository serves the bytes`,
          async () => {
            open.faults.redirect = false;
            open.resetCounters();
            const [answer] = await readAll(page, open, { pool });
            deepStrictEqual(answer, expected);
            strictEqual(open.counters.heads, 0);
            strictEqual(open.counters.storeRequests, 0);
            ok(open.counters.accessBytes > 0);
            open.faults.redirect = true;
          },
        );

        await t.step(
          `${via}, a token and a redirect: a clear error, the token kept`,
          async () => {
            locked.faults.redirect = true;
            locked.resetCounters();
            const [answer] = await readAll(page, locked, {
              pool,
              token: TOKEN,
            });
            deepStrictEqual(answer.tree, expected.tree); // the listing needs only the repository
            for (const read of ["file", "range", "stream", "array"] as const) {
              const outcome = answer[read] as { error?: { message: string } };
              ok(
                outcome.error,
                `${read} should fail, got ${JSON.stringify(outcome)}`,
              );
              match(outcome.error.message, /serves the bytes itself/);
              ok(!outcome.error.message.includes(TOKEN));
            }
            const c = locked.counters;
            strictEqual(c.storeRequests, 0, "nothing reached the store");
            strictEqual(c.storeRequestsWithToken, 0);
            strictEqual(
              c.accessGets,
              0,
              "no request with the token followed a redirect",
            );
            ok(c.heads > 0 && c.peakConcurrentHeads <= 3);
          },
        );

        await t.step(
          `${via}, a token, no redirect: one HEAD per file`,
          async () => {
            locked.faults.redirect = false;
            locked.resetCounters();
            const [answer] = await readAll(page, locked, {
              pool,
              token: TOKEN,
            });
            deepStrictEqual(answer, expected);
            const c = locked.counters;
            ok(c.heads > 0 && c.heads <= expected.tree.length);
            ok(c.peakConcurrentHeads <= 3);
            strictEqual(c.storeRequests, 0);
            locked.faults.redirect = true;
          },
        );
      }

      await t.step("the demo page draws the array", async () => {
        open.faults.redirect = true;
        const demo = await bounded(
          browser.open(server.url),
          "opening the demo page",
        );
        await demo.command("Emulation.setDeviceMetricsOverride", {
          width: 1280,
          height: 900,
          deviceScaleFactor: 1,
          mobile: false,
        });
        const state = await demo.waitUntil<string>(
          "['drawn', 'failed'].includes(document.body.dataset.state) && document.body.dataset.state",
        );
        strictEqual(
          state,
          "drawn",
          await demo.evaluate<string>(
            "document.querySelector('#status').textContent",
          ),
        );
        const figures = await demo.evaluate<string>(
          "document.querySelector('#figures').textContent",
        );
        match(figures, /GETs on the access endpoint\d+/);
        const rect = await demo.evaluate<
          { x: number; y: number; width: number; height: number }
        >(
          "(({ x, y, width, height }) => ({ x, y, width, height }))(document.querySelector('#image').getBoundingClientRect())",
        );
        const png = await demo.screenshot();
        const shot = `${
          Deno.env.get("TMPDIR") ?? "/tmp"
        }/repo-fs-browser-demo.png`;
        await Deno.writeFile(shot, png);
        const colours = distinctColours(png, rect);
        ok(
          colours >= 100,
          `the canvas area of ${shot} holds ${colours} colours; a drawn field has hundreds`,
        );
      });
    } finally {
      await Deno.remove(bundleDir, { recursive: true });
    }
  },
});

/**
 * Deno's `fetch` answering `redirect: "manual"` as a browser does: a
 * redirect becomes an opaque response (status 0, no headers).
 */
function browserLikeFetch(): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (
      init?.redirect !== "manual" || response.status < 300 ||
      response.status >= 400
    ) {
      return response;
    }
    await response.body?.cancel();
    return Object.defineProperty(Response.error(), "type", {
      value: "opaqueredirect",
    });
  };
}

Deno.test("browser: a fetch that hides redirects, in a runtime not known as a browser", async (t) => {
  const files: Record<string, string> = {
    "a.txt": "hello",
    "b.txt": "world",
    "c.txt": "again",
  };
  await using open = await startEmulator({
    files: { ...files, "d.txt": { content: "", listedSize: null } },
  });
  await using locked = await startEmulator({ files, token: TOKEN });

  await t.step(
    "no token: the first opaque HEAD switches to ranged GETs",
    async () => {
      const fs = new RepoFs({
        host: open.host,
        pid: open.pid,
        headConcurrency: 1,
        fetch: browserLikeFetch(),
      });
      for (const path of ["a.txt", "b.txt", "c.txt"]) {
        strictEqual(
          new TextDecoder().decode(await fs.catFile(path)),
          files[path],
        );
      }
      strictEqual(open.counters.heads, 1, "one HEAD, to learn");
      strictEqual(open.counters.accessGets, 3, "one ranged GET per file");
      strictEqual(open.counters.storeRequestsWithToken, 0);

      // The repository now serves bytes itself: the ranged GET is answered
      // by it, a 416 for an empty file of unlisted size.
      open.faults.redirect = false;
      open.resetCounters();
      strictEqual(new TextDecoder().decode(await fs.catFile("d.txt")), "");
      strictEqual(open.counters.heads, 0);
      strictEqual(open.counters.accessGets, 2, "the ranged GET, then the read");
      strictEqual(open.counters.storeRequests, 0);
    },
  );

  await t.step(
    "a token: a clear error, nothing sent to the store",
    async () => {
      const fs = new RepoFs({
        host: locked.host,
        pid: locked.pid,
        token: TOKEN,
        fetch: browserLikeFetch(),
      });
      await rejects(fs.catFile("a.txt"), (e: unknown) => {
        ok(e instanceof RepoProtocolError, String(e));
        match(e.message, /hides redirects.*serves the bytes itself/);
        ok(!e.message.includes(TOKEN));
        return true;
      });
      strictEqual(locked.counters.heads, 1, "no retry of a refusal");
      strictEqual(locked.counters.accessGets, 0);
      strictEqual(locked.counters.storeRequests, 0);
    },
  );

  await t.step(
    "a token, no redirect: the repository serves the bytes",
    async () => {
      locked.faults.redirect = false;
      locked.resetCounters();
      const fs = new RepoFs({
        host: locked.host,
        pid: locked.pid,
        token: TOKEN,
        fetch: browserLikeFetch(),
      });
      strictEqual(new TextDecoder().decode(await fs.catFile("b.txt")), "world");
      strictEqual(locked.counters.heads, 1);
      strictEqual(locked.counters.storeRequests, 0);
    },
  );
});

/** How many colours the PNG has inside `rect` (CSS pixels, scale 1). */
function distinctColours(
  png: Uint8Array,
  rect: { x: number; y: number; width: number; height: number },
): number {
  const image = decode(png);
  const channels = image.channels;
  const seen = new Set<number>();
  const [x0, y0] = [Math.ceil(rect.x), Math.ceil(rect.y)];
  const [x1, y1] = [
    Math.min(image.width, Math.floor(rect.x + rect.width)),
    Math.min(image.height, Math.floor(rect.y + rect.height)),
  ];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * channels;
      seen.add(
        (image.data[i] << 16) | (image.data[i + 1] << 8) | image.data[i + 2],
      );
    }
  }
  return seen.size;
}
