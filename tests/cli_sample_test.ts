import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { cliCommand, runCli } from "./support.ts";

const decoder = new TextDecoder();

Deno.test("startEmulator({ sample: true }) serves a Zarr store, tables, nested folders and a name with a space", async () => {
  await using emu = await startEmulator({ sample: true });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const paths = await fs.find("");
  for (
    const path of [
      "README.md",
      "climate.zarr/.zmetadata",
      "climate.zarr/temperature/0.0.0",
      "tables/stations.tab",
      "docs/methods v1.0.txt",
      "runs/2024/42",
    ]
  ) ok(paths.includes(path), `${path} in ${paths.join(", ")}`);
  const table = await fs.info("tables/stations.tab");
  equal(table.tabular, true);
  const elevation = await getArray(fs, "climate.zarr", "elevation");
  deepStrictEqual(elevation.shape, [90, 180]);
  const mask = await getArray(fs, "climate.zarr", "land_mask");
  const data = elevation.data as Int16Array;
  ok(
    (mask.data as Uint8Array).every((m, i) => m === (data[i] > 0 ? 1 : 0)),
    "land_mask is elevation > 0",
  );
  const temperature = await getArray(fs, "climate.zarr", "temperature", [
    0,
    null,
    null,
  ]);
  deepStrictEqual(temperature.shape, [90, 180]);
});

/** Starts `repo-fs emulate ARGS`, resolves to the child and what it printed before "Stop with Ctrl-C.". */
async function emulate(args: string[]) {
  const child = cliCommand(["emulate", ...args]).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("Stop with Ctrl-C.")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  return {
    text,
    async stop() {
      child.kill("SIGTERM");
      const [status] = await Promise.all([
        child.status,
        child.stderr.cancel(),
        reader.cancel(),
      ]);
      return status.code;
    },
  };
}

Deno.test("emulate --sample prints both addresses and the --host/--pid to use; --token is required as on a real repository", async () => {
  const served = await emulate([
    "--sample",
    "--token",
    "sekrit",
    "--latency-ms",
    "1",
    "--no-redirect",
  ]);
  try {
    const repository = served.text.match(/repository: +(http\S+)/)?.[1];
    const store = served.text.match(/object store: +(http\S+)/)?.[1];
    const target = served.text.match(/ (--host \S+ --pid \S+)\n/)?.[1];
    ok(repository && store && target, served.text);
    ok(repository !== store);
    ok(served.text.includes("from the sample dataset"), served.text);
    const args = target.split(" ");
    equal(args[1], repository);

    const refused = await runCli([...args, "ls"]);
    equal(refused.code, 1);
    ok(refused.stderr.includes("401"), refused.stderr);

    const listed = await runCli([...args, "ls"], { REPO_API_TOKEN: "sekrit" });
    equal(listed.code, 0, listed.stderr);
    ok(listed.stdout.includes("climate.zarr/"), listed.stdout);

    const page = served.text.match(/ or --dataset '(\S+)'\n/)?.[1];
    ok(page, served.text);
    const viaPage = await runCli(["--dataset", page, "ls"], {
      REPO_API_TOKEN: "sekrit",
    });
    equal(viaPage.stdout, listed.stdout, viaPage.stderr);

    const catted = await runCli([...args, "cat", "docs/methods v1.0.txt"], {
      REPO_API_TOKEN: "sekrit",
    });
    equal(catted.stdout, "Methods: pseudo-random fields.\n");

    // --no-redirect: the repository answers with the bytes itself.
    const id = JSON.parse(
      (await runCli([...args, "--json", "info", "README.md"], {
        REPO_API_TOKEN: "sekrit",
      })).stdout,
    ).id;
    const head = await fetch(`${repository}/api/access/datafile/${id}`, {
      method: "HEAD",
      redirect: "manual",
      headers: { "X-Repo-key": "sekrit" },
    });
    equal(head.status, 200);
  } finally {
    equal(await served.stop(), 0);
  }
});

Deno.test("emulate on a busy port names the port; without DIR or --sample it is bad usage", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  const busy = await runCli(["emulate", "--sample", "--port", String(port)]);
  equal(busy.code, 1);
  ok(busy.stderr.includes(`port ${port} is already in use`), busy.stderr);
  equal(busy.stderr.trim().split("\n").length, 1, busy.stderr);
  const nothing = await runCli(["emulate"]);
  equal(nothing.code, 2);
  ok(nothing.stderr.includes("DIR or --sample"), nothing.stderr);
});
