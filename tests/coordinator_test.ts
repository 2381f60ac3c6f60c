import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  throws,
} from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@redis/client";
import { type Emulator, startEmulator } from "../emulator.ts";
import { RepoFs, type UrlCoordinator } from "../mod.ts";
import { redisCoordinator } from "../fleet.ts";
import { getArray } from "../zarr.ts";
import { SAMPLE_STORE, sampleDataset } from "../src/emulator/sample.ts";
import {
  bounded,
  cliCommand,
  filesBelow,
  finished,
  patterned,
  until,
} from "./support.ts";
import { hasRedis, type RedisServer, startRedis } from "./redis_server.ts";
import { COMMAND_TIMEOUT_MS } from "../src/fleet/coordinator_connection.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TOKEN = "coordinator-test-token-4711";
const decoder = new TextDecoder();
const redis = await hasRedis();

/** A dataset of `count` files in a few directories, of different sizes. */
function dataset(count: number): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    files[`d${i % 4}/f${String(i).padStart(3, "0")}.bin`] = patterned(
      100 + 37 * i,
      i,
    );
  }
  return files;
}

/** `repo-fs` on the emulator's dataset as a process of its own, as one machine of a fleet runs it. */
function repoFs(
  emu: Emulator,
  args: string[],
  env: Record<string, string> = {},
): Deno.ChildProcess {
  return cliCommand(["--host", emu.host, "--pid", emu.pid, ...args], env)
    .spawn();
}

/** Every file below `dir` with its bytes. */
async function contents(dir: string): Promise<Record<string, Uint8Array>> {
  const found: Record<string, Uint8Array> = {};
  for (const path of await filesBelow(dir)) {
    found[path] = await Deno.readFile(join(dir, path));
  }
  return found;
}

/** The emulator, a Redis server and a temp dir, all gone at the end. */
async function setup(count: number, latencyMs = 20) {
  const files = dataset(count);
  const emu = await startEmulator({ files, faults: { latencyMs } });
  const server = await startRedis();
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  return {
    files,
    emu,
    server,
    tmp,
    async [Symbol.asyncDispose]() {
      await server.stop();
      await emu.close();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

/** The repository never saw more than the fleet's 3 HEADs at once. */
function withinOneBudget(emu: Emulator): void {
  ok(
    emu.counters.peakConcurrentHeads <= 3,
    `peak ${emu.counters.peakConcurrentHeads}`,
  );
}

/** Every key in the server with its value (strings only) and time to live. */
async function keysOf(server: RedisServer) {
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    const found: { key: string; value: string | null; pttl: number }[] = [];
    for (const key of await client.keys("*")) {
      found.push({
        key,
        value: await client.get(key),
        pttl: await client.pTTL(key),
      });
    }
    return found;
  } finally {
    await client.close();
  }
}

Deno.test({
  name:
    "4 processes downloading the whole dataset with one coordinator: HEADs == files, at most 3 at a time",
  ignore: !redis,
  async fn() {
    await using run = await setup(40);
    const { emu, server, tmp, files } = run;
    const children = [0, 1, 2, 3].map((i) =>
      repoFs(emu, [
        "get",
        "**",
        "--out",
        join(tmp, `out${i}`),
        "--coordinator",
        server.url,
      ])
    );
    const results = await Promise.all(children.map(finished));
    for (const result of results) equal(result.code, 0, result.stderr);
    equal(emu.counters.heads, Object.keys(files).length);
    withinOneBudget(emu);
    for (const i of [0, 1, 2, 3]) {
      deepStrictEqual(await contents(join(tmp, `out${i}`)), files);
    }
  },
});

Deno.test({
  name:
    "REPO_FS_COORDINATOR: two processes, one after the other, resolve each file once",
  ignore: !redis,
  async fn() {
    await using run = await setup(12, 0);
    const { emu, server, tmp, files } = run;
    const env = { REPO_FS_COORDINATOR: server.url };
    for (const i of [0, 1]) {
      const result = await finished(
        repoFs(emu, ["get", "**", "--out", join(tmp, `out${i}`)], env),
      );
      equal(result.code, 0, result.stderr);
    }
    equal(emu.counters.heads, Object.keys(files).length);
  },
});

Deno.test({
  name:
    "concurrent asks for one file from two instances wait for the first: one HEAD",
  ignore: !redis,
  async fn() {
    await using run = await setup(4, 0);
    const { emu, server } = run;
    emu.faults.rules.push({ route: "head", delayMs: 300, times: Infinity });
    const options = {
      host: emu.host,
      pid: emu.pid,
      coordinator: redisCoordinator(server.url),
    };
    const [a, b] = [new RepoFs(options), new RepoFs(options)];
    const id = emu.fileId("d0/f000.bin");
    const [first, second] = await Promise.all([
      a.resolveDownloadUrl(id),
      b.resolveDownloadUrl(id),
    ]);
    equal(first, second);
    equal(emu.counters.heads, 1);
  },
});

Deno.test({
  name:
    "the token is never stored; URLs are kept until they near their own expiry",
  ignore: !redis,
  async fn() {
    const files = dataset(3);
    await using emu = await startEmulator({
      files,
      token: TOKEN,
      urlLifetimeSeconds: 600,
    });
    await using server = await startRedis();
    const fs = new RepoFs({
      host: emu.host,
      pid: emu.pid,
      token: TOKEN,
      coordinator: redisCoordinator(server.url),
    });
    for (const path of Object.keys(files)) await fs.catFile(path);
    const keys = await keysOf(server);
    const urls = keys.filter(({ key }) => key.includes(":url:"));
    equal(urls.length, 3);
    for (const { key, value, pttl } of keys) {
      ok(!key.includes(TOKEN) && !value?.includes(TOKEN), key);
      ok(/^repo-fs:\{[0-9a-f]{32}\}:url:\d+:archival$/.test(key), key);
      // 600 s less the margin (a tenth, at most 30 s), less the time gone since
      ok(pttl > 500_000 && pttl <= 570_000, `${key}: PTTL ${pttl}`);
    }
  },
});

Deno.test({
  name:
    "a process killed with SIGKILL while holding every HEAD place frees them within the lease",
  ignore: !redis,
  async fn() {
    await using run = await setup(12, 0);
    const { emu, server, tmp } = run;
    // HEADs hang until the client goes away
    emu.faults.rules.push({ route: "head", delayMs: 60_000, times: Infinity });
    const victim = repoFs(emu, [
      "get",
      "**",
      "--out",
      join(tmp, "victim"),
      "--coordinator",
      server.url,
    ]);
    await until(
      () => emu.counters.concurrentHeads === 3,
      "the victim holds 3 HEADs",
      30_000,
    );
    victim.kill("SIGKILL");
    await victim.output();
    emu.faults.rules = [];
    const fs = new RepoFs({
      host: emu.host,
      pid: emu.pid,
      coordinator: redisCoordinator(server.url),
    });
    // Its places and its "resolving" leases come back once the leases run out.
    const started = performance.now();
    await bounded(fs.catFile("d0/f000.bin"), "a read after the kill");
    const waited = performance.now() - started;
    ok(waited < 20_000, `waited ${waited} ms`);
    withinOneBudget(emu);
  },
});

Deno.test({
  name:
    "the coordinator going away mid-run: reads fail with a CoordinatorError, no HEAD of their own",
  ignore: !redis,
  async fn() {
    await using run = await setup(30, 20);
    const { emu, server, files } = run;
    const fs = new RepoFs({
      host: emu.host,
      pid: emu.pid,
      coordinator: redisCoordinator(server.url),
    });
    const paths = Object.keys(files);
    await fs.catFile(paths[0]);
    const reads = Promise.allSettled(
      paths.slice(1).map((path) => fs.catFile(path)),
    );
    await until(() => emu.counters.heads >= 3, "a few HEADs", 30_000);
    await server.stop();
    const outcomes = await reads;
    const failed = outcomes.filter((o) => o.status === "rejected");
    ok(failed.length > 0);
    for (const { reason } of failed as PromiseRejectedResult[]) {
      equal(reason.name, "CoordinatorError", reason.stack);
      ok(reason.message.includes(server.url), reason.message);
    }
    const heads = emu.counters.heads;
    await rejects(fs.catFile(paths.at(-1)!), { name: "CoordinatorError" });
    equal(emu.counters.heads, heads, "a HEAD was sent without the coordinator");
  },
});

Deno.test({
  name:
    "get with a coordinator that goes away: exit 1, a clear error, nothing half-written",
  ignore: !redis,
  async fn() {
    await using run = await setup(60, 30);
    const { emu, server, tmp } = run;
    const out = join(tmp, "out");
    const child = repoFs(emu, [
      "get",
      "**",
      "--out",
      out,
      "--coordinator",
      server.url,
    ]);
    await until(
      () => emu.counters.heads >= 6,
      "the download is under way",
      30_000,
    );
    await server.stop();
    const result = await finished(child);
    equal(result.code, 1, result.stderr);
    ok(
      result.stderr.includes(`The coordinator ${server.url} cannot be used`),
      result.stderr,
    );
    const written = await filesBelow(out);
    deepStrictEqual(
      written.filter((path) => path.includes("repo-fs-partial")),
      [],
    );
    for (const path of written) {
      deepStrictEqual(await Deno.readFile(join(out, path)), run.files[path]);
    }
  },
});

Deno.test("the coordinator option takes what redisCoordinator returns: a bare URL or a URL of another scheme is a TypeError saying so", () => {
  const options = { host: "repo.example.org", pid: "doi:10.5072/FK2/ABC" };
  throws(
    () =>
      new RepoFs({
        ...options,
        coordinator: "redis://127.0.0.1:6379" as unknown as UrlCoordinator,
      }),
    {
      name: "TypeError",
      message:
        /^coordinator must be what redisCoordinator\(url\) of @x\/repo-fs\/fleet returns, got "redis:\/\/127\.0\.0\.1:6379"$/,
    },
  );
  throws(() => redisCoordinator("http://127.0.0.1:6379"), {
    name: "TypeError",
    message: /^coordinator must be a redis:\/\/host:port URL/,
  });
});

Deno.test("a coordinator is not part of the plain form: RepoFs.fromSerialized takes it again", async () => {
  await using emu = await startEmulator({ files: dataset(1) });
  const coordinator = redisCoordinator("redis://127.0.0.1:9");
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, coordinator });
  const plain = JSON.parse(JSON.stringify(fs.serialize()));
  equal(JSON.stringify(plain).includes("127.0.0.1:9"), false);
  const alone = RepoFs.fromSerialized(plain);
  const path = (await alone.find(""))[0];
  equal((await alone.catFile(path)).byteLength > 0, true);
  equal(emu.counters.heads, 1);
  const again = RepoFs.fromSerialized(plain, { coordinator });
  await rejects(again.catFile(path), { name: "CoordinatorError" });
  equal(emu.counters.heads, 1);
});

Deno.test({
  name: "an unreachable coordinator fails the read and sends no HEAD",
  async fn() {
    await using emu = await startEmulator({ files: dataset(2) });
    const fs = new RepoFs({
      host: emu.host,
      pid: emu.pid,
      coordinator: redisCoordinator("redis://127.0.0.1:9"),
    });
    await rejects(fs.catFile("d0/f000.bin"), {
      name: "CoordinatorError",
      message: /^The coordinator redis:\/\/127\.0\.0\.1:9 cannot be used/,
    });
    equal(emu.counters.heads, 0);
  },
});

Deno.test({
  name:
    "a coordinator that takes the connection and never answers fails the read, after COMMAND_TIMEOUT_MS",
  async fn() {
    await using emu = await startEmulator({ files: dataset(2) });
    const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of silent) held.push(conn);
    })();
    const { port } = silent.addr as Deno.NetAddr;
    try {
      const fs = new RepoFs({
        host: emu.host,
        pid: emu.pid,
        coordinator: redisCoordinator(`redis://127.0.0.1:${port}`),
      });
      await rejects(fs.catFile("d0/f000.bin"), {
        name: "CoordinatorError",
        message: new RegExp(
          `no answer within ${COMMAND_TIMEOUT_MS} ms of connecting`,
        ),
      });
      ok(held.length > 0, "the connection was taken");
      equal(emu.counters.heads, 0);
    } finally {
      silent.close();
      await accepting;
      for (const conn of held) conn.close();
    }
  },
});

/** The files of four shard folders together; fails if two hold the same path. */
async function union(dirs: string[]): Promise<Record<string, Uint8Array>> {
  const all: Record<string, Uint8Array> = {};
  for (const dir of dirs) {
    for (const [path, bytes] of Object.entries(await contents(dir))) {
      if (path.split("/").at(-1)!.includes(".repo-fs-partial-")) continue;
      ok(!(path in all), `${path} is in two shards`);
      all[path] = bytes;
    }
  }
  return all;
}

function shardArgs(server: RedisServer, out: string, i: number): string[] {
  return [
    "get",
    "**",
    "--shard",
    `${i}/4`,
    "--out",
    out,
    "--coordinator",
    server.url,
  ];
}

Deno.test({
  name:
    "4 processes, one shard each, one coordinator: at most 3 HEADs at a time, HEADs == files, the union is the dataset",
  ignore: !redis,
  async fn() {
    await using run = await setup(40);
    const { emu, server, tmp, files } = run;
    const outs = [0, 1, 2, 3].map((i) => join(tmp, `shard${i}`));
    const results = await Promise.all(
      outs.map((out, i) => finished(repoFs(emu, shardArgs(server, out, i)))),
    );
    for (const result of results) equal(result.code, 0, result.stderr);
    equal(emu.counters.heads, Object.keys(files).length);
    withinOneBudget(emu);
    deepStrictEqual(await union(outs), files);
  },
});

Deno.test({
  name:
    "4 sharded processes, one killed with SIGKILL halfway: the others finish, the peak stays <= 3, the rerun with --resume completes",
  ignore: !redis,
  async fn() {
    await using run = await setup(80, 50);
    const { emu, server, tmp, files } = run;
    const outs = [0, 1, 2, 3].map((i) => join(tmp, `shard${i}`));
    const children = outs.map((out, i) =>
      repoFs(emu, shardArgs(server, out, i))
    );
    const victim = 1;
    const others = Promise.all(
      children.filter((_, i) => i !== victim).map(finished),
    );
    const victimDone = finished(children[victim]);
    const written = async () =>
      (await filesBelow(outs[victim])).filter((path) =>
        !path.includes(".repo-fs-partial-")
      ).length;
    await until(
      async () => await written() >= 3,
      "the victim wrote 3 files",
      30_000,
    );
    children[victim].kill("SIGKILL");
    const killed = await victimDone;
    ok(killed.code !== 0, "the victim was killed before it finished");
    for (const result of await others) equal(result.code, 0, result.stderr);
    const rerun = await finished(
      repoFs(emu, [...shardArgs(server, outs[victim], victim), "--resume"]),
    );
    equal(rerun.code, 0, rerun.stderr);
    withinOneBudget(emu);
    deepStrictEqual(await union(outs), files);
  },
});

Deno.test({
  name:
    "demo/fleet.ts: four processes with one coordinator keep one HEAD budget and combine their statistics",
  ignore: !redis,
  async fn() {
    await using server = await startRedis();
    await using emu = await startEmulator({
      files: await sampleDataset(48),
      faults: { latencyMs: 5 },
    });
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "-A",
        join(REPO, "demo/fleet.ts"),
        ...["--host", emu.host, "--pid", emu.pid, "--shards", "4"],
        ...["--coordinator", server.url, "--workers", "1", "--json"],
      ],
      env: { REPO_FS_COORDINATOR: "", REPO_API_TOKEN: "" },
      stdin: "null",
    }).output();
    equal(code, 0, decoder.decode(stderr));
    const { shares, combined } = JSON.parse(decoder.decode(stdout));
    equal(shares.length, 4);
    const chunkFiles = (await new RepoFs({ host: emu.host, pid: emu.pid })
      .find(`${SAMPLE_STORE}/temperature`)).filter((path) =>
        !path.split("/").pop()!.startsWith(".")
      );
    withinOneBudget(emu);
    // Each file once for the whole fleet: the chunks, and at most the four
    // metadata files (.zgroup, .zmetadata, temperature/.zarray and .zattrs)
    // that four private caches would each have resolved again.
    ok(
      emu.counters.heads <= chunkFiles.length + 4,
      `${emu.counters.heads} HEADs for ${chunkFiles.length} chunks`,
    );
    const { data } = await getArray(
      new RepoFs({ host: emu.host, pid: emu.pid }),
      SAMPLE_STORE,
      "temperature",
    );
    const values = data as Float32Array;
    equal(combined.count, values.length);
    equal(combined.min, values.reduce((a, b) => Math.min(a, b)));
    equal(combined.max, values.reduce((a, b) => Math.max(a, b)));
  },
});
