// Run by tests/bun_test.ts with Bun, in a project where `bun add` installed
// the package `deno pack` built: reads the emulator's dataset at REPO_HOST
// and REPO_PID on the main thread and through a pool of 2 workers, downloads
// a file into DOWNLOAD_DIR, fails two reads on purpose, and prints what it
// read as JSON. After `pool.close()` nothing may keep the process alive: the
// test waits for it to exit.
import { NotFoundError, RepoFs, RepoFsPool, RepoHttpError } from "@x/repo-fs";
import { getArray } from "@x/repo-fs/zarr";

const fs = new RepoFs({
  host: process.env.REPO_HOST,
  pid: process.env.REPO_PID,
});
const pool = new RepoFsPool(fs, { workers: 2 });
const text = (bytes) => new TextDecoder().decode(bytes);
const checksum = (bytes) => {
  let total = 0;
  for (const byte of bytes) total = (total + byte) >>> 0;
  return total;
};

/** How `promise` failed: the error's class, name and fields; or that it did not. */
async function failure(promise, classes) {
  try {
    await promise;
    return { resolved: true };
  } catch (error) {
    return {
      name: error?.name,
      constructor: error?.constructor?.name,
      instanceOf: Object.entries(classes)
        .filter(([, type]) => error instanceof type)
        .map(([name]) => name),
      code: error?.code,
      status: error?.status,
      message: error?.message,
    };
  }
}

try {
  const tree = await pool.find("", { withdirs: true });
  const ls = (await fs.ls("data")).map(({ name, size, type }) => ({
    name,
    size,
    type,
  }));
  const file = text(await pool.catFile("README.md"));
  const range = text(await pool.catFile("README.md", { start: 2, end: 7 }));
  const streamed = { bytes: 0, sum: 0 };
  for await (const chunk of (await fs.open("data/big.bin")).stream()) {
    streamed.bytes += chunk.byteLength;
    for (const byte of chunk) streamed.sum = (streamed.sum + byte) >>> 0;
  }
  const { shape, data } = await getArray(pool, "climate.zarr", "temperature");
  const target = `${process.env.DOWNLOAD_DIR}/big.bin`;
  const downloaded = await pool.downloadToFile("data/big.bin", target);
  const written = new Uint8Array(await Bun.file(target).arrayBuffer());
  const classes = { NotFoundError, RepoHttpError };
  const failures = {
    missingInPool: await failure(pool.catFile("data/missing.bin"), classes),
    missingOnMain: await failure(fs.catFile("data/missing.bin"), classes),
    restrictedInPool: await failure(pool.catFile("secret.bin"), classes),
    restrictedOnMain: await failure(fs.catFile("secret.bin"), classes),
  };
  console.log(JSON.stringify({
    runtime: `bun ${Bun.version}`,
    workers: pool.size,
    tree,
    ls,
    file,
    range,
    streamed,
    array: { shape, data: Array.from(data) },
    downloaded: {
      ...downloaded,
      written: { bytes: written.byteLength, sum: checksum(written) },
    },
    failures,
    worker: import.meta.resolve("@x/repo-fs/worker"),
  }));
} finally {
  await pool.close();
}
