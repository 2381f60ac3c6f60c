// Run by tests/node_test.ts in a Node project where npm installed the
// package `deno pack` built: reads the emulator's dataset at REPO_HOST and
// REPO_PID through a pool of 2 workers and prints what it read as JSON.
import { RepoFs, RepoFsPool } from "@x/repo-fs";
import { getArray } from "@x/repo-fs/zarr";

const fs = new RepoFs({
  host: process.env.REPO_HOST,
  pid: process.env.REPO_PID,
});
const pool = new RepoFsPool(fs, { workers: 2 });
const text = (bytes) => new TextDecoder().decode(bytes);
try {
  const tree = await pool.find("", { withdirs: true });
  const file = text(await pool.catFile("README.md"));
  const range = text(await pool.catFile("README.md", { start: 2, end: 7 }));
  const streamed = { bytes: 0, sum: 0 };
  for await (const chunk of (await fs.open("data/big.bin")).stream()) {
    streamed.bytes += chunk.byteLength;
    for (const byte of chunk) streamed.sum = (streamed.sum + byte) >>> 0;
  }
  const { shape, data } = await getArray(pool, "climate.zarr", "temperature");
  console.log(JSON.stringify({
    workers: pool.size,
    tree,
    file,
    range,
    streamed,
    array: { shape, data: Array.from(data) },
    worker: import.meta.resolve("@x/repo-fs/worker"),
  }));
} finally {
  await pool.close();
}
