/**
 * The dataset explorer in real Chromium (Debian's `chromium`, headless),
 * against the emulator at 20 ms a request: the ARIA tree, expansion by
 * click and keyboard, a deep link, each kind of preview showing the file's
 * values, the status line's byte counts against the emulator's counters,
 * a 100,000-file folder, the static build on a plain static server, and
 * `repo-fs explore`. Screenshots are written to docs/explorer/ when
 * `REPO_FS_SCREENSHOTS=1`.
 *
 * Without `chromium` on `PATH` the browser tests are skipped, loudly.
 */

import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { RepoFs } from "../mod.ts";
import { type Emulator, startEmulator } from "../emulator.ts";
import { getArray, zarrStore } from "../zarr.ts";
import { hdf5Store } from "../hdf5.ts";
import { readRaster } from "../geotiff.ts";
import { buildExplorer } from "../explorer/build.ts";
import { Chromium, type Page } from "./browser/chromium.ts";
import { csvLine, explorerDataset, parquetRow } from "./explorer/datasets.ts";
import { bounded } from "./support.ts";

const HAS_CHROMIUM = (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
  try {
    return Deno.statSync(`${dir}/chromium`).isFile;
  } catch {
    return false;
  }
});
if (!HAS_CHROMIUM) {
  console.warn(
    "\n!!! tests/explorer_test.ts SKIPPED: chromium is not installed: the explorer is NOT tested. !!!\n",
  );
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCREENSHOTS = Deno.env.get("REPO_FS_SCREENSHOTS") === "1";
const TOKEN = "explorer-secret-token-4c1d";

/** Serves `dir` as a plain static site on 127.0.0.1: files by name, nothing else. */
function staticServer(dir: string) {
  const types: Record<string, string> = {
    html: "text/html; charset=utf-8",
    js: "text/javascript; charset=utf-8",
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const name = new URL(request.url).pathname.slice(1) || "index.html";
      try {
        const body = await Deno.readFile(join(dir, name));
        return new Response(body, {
          headers: {
            "content-type": types[name.split(".").pop()!] ??
              "application/octet-stream",
          },
        });
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** The names of the tree items in the DOM, in order. */
function treeItems(page: Page): Promise<{ name: string; level: number }[]> {
  return page.evaluate(
    `[...document.querySelectorAll('[role=tree] [role=treeitem]')].map((item) => ({ name: item.getAttribute('aria-label'), level: Number(item.getAttribute('aria-level')) }))`,
  );
}

/** Clicks the tree item named `name`. */
async function click(page: Page, name: string): Promise<void> {
  await page.waitUntil(
    `[...document.querySelectorAll('[role=treeitem]')].some((i) => i.getAttribute('aria-label') === ${
      JSON.stringify(name)
    })`,
    20_000,
  );
  await page.evaluate(
    `[...document.querySelectorAll('[role=treeitem]')].find((i) => i.getAttribute('aria-label') === ${
      JSON.stringify(name)
    }).click()`,
  );
}

/** Waits for the preview to be over and resolves with its state. */
async function previewDone(page: Page): Promise<string> {
  await page.waitUntil(
    `['shown', 'failed'].includes(document.querySelector('[role=region][aria-label=Preview]').dataset.state)`,
  );
  return page.evaluate(
    `document.querySelector('[role=region][aria-label=Preview]').dataset.state`,
  );
}

/** The status line's byte count and file size. */
function status(
  page: Page,
): Promise<{ bytes: number; size: number; text: string }> {
  return page.evaluate(
    `(() => { const s = document.querySelector('[role=status]'); return { bytes: Number(s.dataset.bytes), size: Number(s.dataset.size), text: s.textContent }; })()`,
  );
}

/** The text of every cell of the `index`th table of the preview, row by row. */
function tableCells(page: Page, index: number): Promise<string[][]> {
  return page.evaluate(
    `[...document.querySelectorAll('[role=region] table')[${index}].querySelectorAll('tbody tr')].map((row) => [...row.cells].map((c) => c.textContent))`,
  );
}

/** Opens `path` by a click and checks the status line against the emulator's counters. */
async function previewOf(
  page: Page,
  emulator: Emulator,
  name: string,
): Promise<{ bytes: number; size: number; text: string }> {
  emulator.resetCounters();
  await page.evaluate(
    `document.querySelector('[role=region][aria-label=Preview]').dataset.state = ''`,
  );
  await click(page, name);
  strictEqual(
    await previewDone(page),
    "shown",
    (await page.evaluate<string>(
      `document.querySelector('[role=region]').textContent`,
    )).slice(0, 500),
  );
  // The workers' counts may reach the status line just after the preview shows.
  let shown = await status(page);
  let sent = 0;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    shown = await status(page);
    sent = emulator.counters.storeBytes + emulator.counters.accessBytes;
    if (Math.abs(shown.bytes - sent) <= 0.05 * sent + 1024) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  ok(
    Math.abs(shown.bytes - sent) <= 0.05 * sent + 1024,
    `the status line says ${shown.bytes} bytes, the emulator sent ${sent}`,
  );
  strictEqual(emulator.counters.storeRequestsWithToken, 0);
  return shown;
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  await Deno.mkdir(join(ROOT, "docs/explorer"), { recursive: true });
  await Deno.writeFile(
    join(ROOT, `docs/explorer/${name}.png`),
    await page.screenshot(),
  );
}

/** The page's console errors and exceptions so far. */
function consoleErrors(page: Page): string[] {
  return page.cdp.log.filter((line) =>
    /^(console\.error|exception)/.test(line)
  );
}

Deno.test({
  name: "explorer: tree, keyboard, deep link and every preview in Chromium",
  ignore: !HAS_CHROMIUM,
  async fn(t) {
    const { files, hasNetcdf } = await explorerDataset();
    await using emulator = await startEmulator({
      files,
      faults: { latencyMs: 20 },
    });
    await using locked = await startEmulator({
      files: { "a.csv": "x,y\n1,2\n" },
      token: TOKEN,
      faults: { latencyMs: 20 },
    });
    const site = await Deno.makeTempDir({ prefix: "repo-fs-explorer-site-" });
    try {
      await buildExplorer(site);
      await using server = staticServer(site);
      await using browser = await Chromium.launch();
      ok(browser, "chromium is on PATH but could not be started");
      const address = `${server.url}?siteUrl=${
        encodeURIComponent(emulator.host)
      }&datasetPid=${encodeURIComponent(emulator.pid)}`;
      const page = await bounded(browser.open(address), "opening the explorer");
      await page.command("Emulation.setDeviceMetricsOverride", {
        width: 1280,
        height: 800,
        deviceScaleFactor: 1,
        mobile: false,
      });
      await page.waitUntil(
        `['ready', 'failed'].includes(document.body.dataset.state)`,
      );
      strictEqual(await page.evaluate(`document.body.dataset.state`), "ready");
      const fs = new RepoFs({
        host: emulator.host,
        pid: emulator.pid,
        token: TOKEN,
      });

      await t.step(
        "the root as an ARIA tree of the dataset's entries",
        async () => {
          const root = await fs.ls("");
          deepStrictEqual(
            await treeItems(page),
            root.map((entry) => ({ name: entry.name, level: 1 })),
          );
          strictEqual(
            await page.evaluate(
              `document.querySelectorAll('[role=tree]').length`,
            ),
            1,
          );
        },
      );

      await t.step(
        "a folder expands on a click, and the keyboard moves and collapses",
        async () => {
          await click(page, "big");
          await page.waitUntil(
            `document.querySelector('[aria-label="table.csv"]')`,
          );
          const items = await treeItems(page);
          const big = items.findIndex((i) => i.name === "big");
          deepStrictEqual(
            items.slice(big + 1, big + 1 + (await fs.ls("big")).length).map((
              i,
            ) => i.level),
            (await fs.ls("big")).map(() => 2),
          );
          await page.evaluate(`document.querySelector('[role=tree]').focus()`);
          const key = (k: string) =>
            page.evaluate(
              `document.querySelector('[role=tree]').dispatchEvent(new KeyboardEvent('keydown', { key: ${
                JSON.stringify(k)
              }, bubbles: true }))`,
            );
          await key("ArrowDown");
          const active = await page.evaluate<string>(
            `document.getElementById(document.querySelector('[role=tree]').getAttribute('aria-activedescendant')).dataset.path`,
          );
          strictEqual(active, (await fs.ls("big"))[0].name);
          await key("ArrowLeft");
          await key("ArrowLeft");
          await page.waitUntil(
            `!document.querySelector('[aria-label="table.csv"]')`,
          );
          strictEqual(
            await page.evaluate(
              `document.querySelector('[aria-label=big]').getAttribute('aria-expanded')`,
            ),
            "false",
          );
        },
      );

      await t.step(
        "a CSV: its first rows as a table, a few percent of the file fetched",
        async () => {
          await click(page, "big");
          const shown = await previewOf(page, emulator, "table.csv");
          const cells = await tableCells(page, 0);
          deepStrictEqual(
            cells.slice(0, 5),
            [1, 2, 3, 4, 5].map((i) =>
              csvLine(i).split(",").map((c) => c.replaceAll('"', ""))
            ),
          );
          ok(shown.bytes < 0.03 * shown.size, shown.text);
          await screenshot(page, "table");
        },
      );

      await t.step(
        "Parquet: schema, row groups and the first rows",
        async () => {
          const shown = await previewOf(page, emulator, "stations.parquet");
          const rows = await tableCells(page, 2);
          deepStrictEqual(
            rows.slice(0, 3),
            [0, 1, 2].map((i) => {
              const row = parquetRow(i);
              return [String(row.id), String(row.value), row.label];
            }),
          );
          deepStrictEqual((await tableCells(page, 0)).map((r) => r[0]), [
            "id",
            "value",
            "label",
          ]);
          ok(shown.bytes < 0.03 * shown.size, shown.text);
          await screenshot(page, "parquet");
        },
      );

      await t.step("zip: the members, and a member's preview", async () => {
        const shown = await previewOf(page, emulator, "survey.zip");
        ok(shown.bytes < 0.03 * shown.size, shown.text);
        const names = await page.evaluate<string[]>(
          `[...document.querySelectorAll('.members button')].map((b) => b.textContent)`,
        );
        ok(
          names.includes("small.csv") && names.includes("parts/part-039.csv"),
          names.join(),
        );
        await page.evaluate(
          `[...document.querySelectorAll('.members button')].find((b) => b.textContent === 'small.csv').click()`,
        );
        await page.waitUntil(`document.querySelector('.member table')`);
        deepStrictEqual(
          await page.evaluate(
            `[...document.querySelectorAll('.member table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))`,
          ),
          [["1", "2"], ["3", "4"]],
        );
        await screenshot(page, "zip");
      });

      await t.step(
        "Zarr: a 2-D slice drawn, its legend the slice's min and max",
        async () => {
          await click(page, "climate.zarr");
          await page.waitUntil(
            `document.querySelector('.plot[data-state=drawn]')`,
          );
          await previewDone(page);
          const drawn = await drawing(page);
          const variable = await page.evaluate<string>(
            `document.querySelector('.plot h3').textContent`,
          );
          const { shape } = await zarr.open(
            zarr.root(zarrStore(fs, "climate.zarr")).resolve(variable),
            { kind: "array" },
          );
          const { data } = await getArray(
            fs,
            "climate.zarr",
            variable,
            shape.map((_, axis) => axis < shape.length - 2 ? 0 : null),
          );
          const values = [...(data as Float32Array)].filter(Number.isFinite);
          strictEqual(drawn.min, Math.min(...values));
          strictEqual(drawn.max, Math.max(...values));
          ok(drawn.colours > 1, "the field is drawn in more than one colour");
          await screenshot(page, "zarr");
        },
      );

      await t.step({
        name: "NetCDF4: the variables, a slice drawn from one chunk",
        ignore: !hasNetcdf,
        fn: async () => {
          const shown = await previewOf(page, emulator, "climate.nc");
          await page.waitUntil(
            `document.querySelector('.plot[data-state=drawn]')`,
          );
          const drawn = await drawing(page);
          const arr = await zarr.open(
            zarr.root(hdf5Store(fs, "big/climate.nc")).resolve("temperature"),
            { kind: "array" },
          );
          const { data } = await zarr.get(arr, [0, null, null]);
          const values = [...(data as Float32Array)];
          strictEqual(drawn.min, Math.min(...values));
          strictEqual(drawn.max, Math.max(...values));
          ok(drawn.colours > 1);
          ok(shown.bytes < 0.03 * shown.size, shown.text);
          await screenshot(page, "netcdf");
        },
      });

      await t.step(
        "GeoTIFF: an image drawn, its legend its first band's min and max",
        async () => {
          await click(page, "maps");
          await previewOf(page, emulator, "cog.tif");
          await page.waitUntil(
            `document.querySelector('.plot[data-state=drawn]')`,
          );
          const drawn = await drawing(page);
          const { data } = await readRaster(fs, "maps/cog.tif", {
            image: 0,
            samples: [0],
          });
          const values = [...data[0]];
          strictEqual(drawn.min, values.reduce((a, b) => Math.min(a, b)));
          strictEqual(drawn.max, values.reduce((a, b) => Math.max(a, b)));
          ok(drawn.colours > 1);
          await screenshot(page, "geotiff");
        },
      );

      await t.step(
        "an image shown, text shown, a restricted file marked",
        async () => {
          await click(page, "pictures");
          await previewOf(page, emulator, "gradient.png");
          await page.waitUntil(
            `document.querySelector('img.image')?.naturalWidth === 64`,
          );
          await screenshot(page, "image");
          await click(page, "docs");
          await previewOf(page, emulator, "notes.md");
          strictEqual(
            await page.evaluate(
              `document.querySelector('pre.text').textContent`,
            ),
            "# Notes\n\nTaken on the first day.",
          );
          await screenshot(page, "text");
          await click(page, "private");
          await page.waitUntil(
            `document.querySelector('[aria-label="secret.csv"]')`,
          );
          strictEqual(
            await page.evaluate(
              `document.querySelector('[aria-label="secret.csv"]').dataset.restricted`,
            ),
            "true",
          );
        },
      );

      await t.step("a deep link opens its file after a reload", async () => {
        await page.evaluate(
          `location.hash = "#path=${encodeURIComponent("big/table.csv")}"`,
        );
        const loaded = page.cdp.waitFor("Page.loadEventFired", page.sessionId);
        await page.command("Page.reload");
        await loaded;
        await page.waitUntil(`document.body.dataset.state === 'ready'`);
        strictEqual(await previewDone(page), "shown");
        strictEqual(
          await page.evaluate(
            `document.querySelector('[role=region] h2').textContent`,
          ),
          "big/table.csv",
        );
        deepStrictEqual((await tableCells(page, 0))[0], [
          "0",
          "0.00",
          "name 0",
        ]);
      });

      await t.step(
        "one file's preview by its id (fileid), as a file-scope tool",
        async () => {
          const id = (await fs.info("big/stations.parquet")).id!;
          await page.goto(
            `${server.url}?siteUrl=${
              encodeURIComponent(emulator.host)
            }&fileid=${id}`,
          );
          await page.waitUntil(`document.body.dataset.state === 'ready'`);
          strictEqual(await previewDone(page), "shown");
          strictEqual(
            await page.evaluate(
              `document.querySelector('[role=region] h2').textContent`,
            ),
            "big/stations.parquet",
          );
        },
      );

      await t.step(
        "with a key the token goes to the repository only, the store's redirect followed without it; without it the failure is a line",
        async () => {
          const base = `${server.url}?siteUrl=${
            encodeURIComponent(locked.host)
          }&datasetPid=${encodeURIComponent(locked.pid)}`;
          locked.resetCounters();
          await page.goto(`${base}&key=${TOKEN}&tokenHeader=X-Repo-key`);
          await page.waitUntil(`document.body.dataset.state === 'ready'`);
          await click(page, "a.csv");
          strictEqual(await previewDone(page), "shown");
          deepStrictEqual(await tableCells(page, 0), [["1", "2"]]);
          ok(locked.counters.storeGets > 0, "the bytes came from the store");
          strictEqual(locked.counters.storeRequestsWithToken, 0);
          await page.goto(`${base}#path=a.csv`);
          await page.waitUntil(
            `['ready', 'failed'].includes(document.body.dataset.state)`,
          );
          const text = await page.evaluate<string>(
            `document.querySelector('[role=region]').textContent`,
          );
          ok(/401|token|key/i.test(text), text);
        },
      );

      deepStrictEqual(consoleErrors(page), []);
    } finally {
      await Deno.remove(site, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "explorer: a folder of 100,000 files keeps under 2,000 tree items in the DOM",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) {
      files[`f${String(i).padStart(6, "0")}.txt`] = "";
    }
    await using emulator = await startEmulator({ files });
    const site = await Deno.makeTempDir({ prefix: "repo-fs-explorer-site-" });
    try {
      await buildExplorer(site);
      await using server = staticServer(site);
      await using browser = await Chromium.launch();
      ok(browser);
      const page = await browser.open(
        `${server.url}?siteUrl=${
          encodeURIComponent(emulator.host)
        }&datasetPid=${encodeURIComponent(emulator.pid)}`,
      );
      await page.waitUntil(`document.body.dataset.state === 'ready'`);
      let most = 0;
      for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
        await page.evaluate(
          `(() => { const t = document.querySelector('[role=tree]'); t.scrollTop = ${fraction} * t.scrollHeight; t.dispatchEvent(new Event('scroll')); })()`,
        );
        most = Math.max(most, (await treeItems(page)).length);
      }
      ok(most > 0 && most < 2_000, `${most} tree items in the DOM`);
      const last = await treeItems(page);
      strictEqual(last.at(-1)?.name, "f099999.txt");
    } finally {
      await Deno.remove(site, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "explorer: repo-fs explore serves the page, and the dataset only with its key",
  ignore: !HAS_CHROMIUM,
  async fn() {
    await using emulator = await startEmulator({
      files: { "a.csv": "x,y\n1,2\n" },
      token: TOKEN,
    });
    // -A as the README installs the command: building the page runs `deno bundle`.
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "cli.ts",
        "--host",
        emulator.host,
        "--pid",
        emulator.pid,
        "--json",
        "explore",
      ],
      cwd: ROOT,
      env: { REPO_API_TOKEN: TOKEN, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream())
        .getReader();
      let out = "";
      while (!out.includes("\n")) {
        const { value, done } = await bounded(
          reader.read(),
          "explore's address",
        );
        if (done) break;
        out += value;
      }
      reader.releaseLock();
      const { url } = JSON.parse(out);
      const page = new URL(url);
      strictEqual(page.hostname, "127.0.0.1");
      const refused = await fetch(new URL("explore.json", page));
      strictEqual(refused.status, 403);
      await refused.body?.cancel();
      const config =
        await (await fetch(new URL(`explore.json${page.search}`, page))).json();
      deepStrictEqual(
        { host: config.host, pid: config.pid, token: config.token },
        { host: emulator.host, pid: emulator.pid, token: TOKEN },
      );
      await using browser = await Chromium.launch();
      ok(browser);
      const tab = await browser.open(url);
      await tab.waitUntil(`document.body.dataset.state === 'ready'`);
      deepStrictEqual(await treeItems(tab), [{ name: "a.csv", level: 1 }]);
    } finally {
      child.kill("SIGTERM");
      await child.stdout.cancel().catch(() => {});
      await child.stderr.cancel();
      await child.status;
    }
  },
});

Deno.test("explorer: the Dataverse external-tool manifests parse and use its placeholders", async () => {
  const dir = join(ROOT, "explorer/manifests");
  const manifests = [];
  for await (const entry of Deno.readDir(dir)) {
    manifests.push(JSON.parse(await Deno.readTextFile(join(dir, entry.name))));
  }
  const explore = manifests.filter((m) => m.scope === "dataset");
  const previews = manifests.filter((m) => m.scope === "file");
  strictEqual(explore.length, 1);
  ok(previews.length >= 1);
  for (const manifest of manifests) {
    ok(manifest.toolUrl.startsWith("https://"), manifest.toolUrl);
    const placeholders = manifest.toolParameters.queryParameters.flatMap(
      Object.values,
    );
    ok(placeholders.includes("{siteUrl}"));
    ok(
      placeholders.every((p: string) => /^\{[a-zA-Z]+\}$/.test(p)),
      placeholders.join(),
    );
  }
  ok(explore[0].types.includes("explore"));
  ok(
    explore[0].toolParameters.queryParameters.flatMap(Object.values).includes(
      "{datasetPid}",
    ),
  );
  for (const preview of previews) {
    ok(preview.types.includes("preview"));
    ok(preview.contentType, "a file tool names its content type");
    ok(
      preview.toolParameters.queryParameters.flatMap(Object.values).includes(
        "{fileId}",
      ),
    );
  }
});

/** The drawn field's legend and how many colours its pixels hold. */
function drawing(
  page: Page,
): Promise<{ min: number; max: number; colours: number }> {
  return page.evaluate(`(() => {
    const canvas = document.querySelector('.plot canvas.field');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set();
    for (let i = 0; i < pixels.length; i += 4) colours.add(pixels[i] * 65536 + pixels[i + 1] * 256 + pixels[i + 2]);
    return {
      min: Number(document.querySelector('.legend .min').dataset.value),
      max: Number(document.querySelector('.legend .max').dataset.value),
      colours: colours.size,
    };
  })()`);
}
