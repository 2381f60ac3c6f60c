// Issue 38 benchmark: the explorer page in headless Chromium against the
// emulator at 20 ms a request. How long the root of a 100,000-file dataset
// takes to show after the listing arrived, and how long each preview of a
// ~100 MB file takes from the click, with the bytes it fetched of the file.
//
// Command (from the repository root; needs Debian's chromium, and its
// python3-netcdf4 for the NetCDF file):
//   deno run -A bench/explorer.ts
// Options: --scale=13 (the big files' size: 13 makes each about 100 MB), --reps=3.

import { countFlag } from "./flags.ts";
import { median } from "./synth_listing.ts";
import { startEmulator } from "../emulator.ts";
import { buildExplorer } from "../explorer/build.ts";
import { Chromium, type Page } from "../tests/browser/chromium.ts";
import { explorerDataset } from "../tests/explorer/datasets.ts";

const SCALE = countFlag("scale", 13);
const REPS = countFlag("reps", 3);

const site = await Deno.makeTempDir({ prefix: "repo-fs-explorer-bench-" });
await buildExplorer(site);
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  async (request) => {
    const name = new URL(request.url).pathname.slice(1) || "index.html";
    const type = name.endsWith(".html") ? "text/html" : "text/javascript";
    try {
      return new Response(await Deno.readFile(`${site}/${name}`), {
        headers: { "content-type": type },
      });
    } catch {
      return new Response("not found", { status: 404 });
    }
  },
);
const pageUrl = `http://127.0.0.1:${server.addr.port}/`;
await using browser = await Chromium.launch();
if (!browser) throw new Error("chromium is not installed");

function address(emu: { host: string; pid: string }, hash = ""): string {
  return `${pageUrl}?siteUrl=${encodeURIComponent(emu.host)}&datasetPid=${
    encodeURIComponent(emu.pid)
  }${hash}`;
}

/** Milliseconds from the listing's arrival to the root shown. */
async function rootShown(page: Page): Promise<number> {
  await page.waitUntil(`document.body.dataset.state === 'ready'`);
  return await page.evaluate<number>(`(() => {
    const listing = performance.getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/datasets/'))
      .map((e) => e.responseEnd);
    return Number(document.body.dataset.readyAt) - Math.max(...listing);
  })()`);
}

const rows: string[][] = [];
{
  const files: Record<string, string> = {};
  for (let i = 0; i < 100_000; i++) {
    files[`f${String(i).padStart(6, "0")}.txt`] = "";
  }
  await using emu = await startEmulator({ files, faults: { latencyMs: 20 } });
  const times = [];
  for (let r = 0; r < REPS; r++) {
    const page = await browser.open(address(emu));
    times.push(await rootShown(page));
    await page.command("Page.close").catch(() => {});
  }
  rows.push([
    "root of 100,000 files, after the listing",
    `${median(times).toFixed(0)} ms`,
    "",
    "",
  ]);
}

const { files } = await explorerDataset(SCALE);
await using emu = await startEmulator({ files, faults: { latencyMs: 20 } });
for (
  const path of [
    "big/table.csv",
    "big/stations.parquet",
    "big/survey.zip",
    "big/climate.nc",
  ]
) {
  if (!(path in files)) continue;
  const times = [];
  let shown = { bytes: 0, size: 0 };
  for (let r = 0; r < REPS; r++) {
    const page = await browser.open(address(emu, "#path=big"));
    await page.waitUntil(
      `document.querySelector('[aria-label="${path.slice(4)}"]')`,
    );
    const started = Date.now();
    await page.evaluate(
      `document.querySelector('[aria-label="${path.slice(4)}"]').click()`,
    );
    await page.waitUntil(
      `document.querySelector('[role=region]').dataset.state === 'shown' && !document.querySelector('.plot[data-state=reading]')`,
    );
    times.push(Date.now() - started);
    shown = await page.evaluate(
      `(() => { const s = document.querySelector('[role=status]'); return { bytes: Number(s.dataset.bytes), size: Number(s.dataset.size) }; })()`,
    );
    await page.command("Page.close").catch(() => {});
  }
  rows.push([
    `preview of ${path} (${(shown.size / 2 ** 20).toFixed(0)} MiB)`,
    `${median(times).toFixed(0)} ms`,
    `${shown.bytes.toLocaleString("en")} B`,
    `${((100 * shown.bytes) / shown.size).toFixed(2)} %`,
  ]);
}
await server.shutdown();
await Deno.remove(site, { recursive: true });

console.log(`| what | median of ${REPS} | fetched | of the file |`);
console.log("| --- | ---: | ---: | ---: |");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
