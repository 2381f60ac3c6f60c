import {
  deepStrictEqual,
  equal,
  match,
  ok,
  strictEqual,
} from "node:assert/strict";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { ZipFormatError, zipTree } from "../zip.ts";
import { runCapped } from "./memory_cap.ts";

const FIXTURES = new URL("../fixtures/zip/", import.meta.url);
/** Archives and a compressed member of each: deflate, Deflate64, Zstandard. */
const DAMAGED = [
  ["plain.zip", "tables/data.csv"],
  ["deflate64.zip", "tables/data.csv"],
  ["zstd.zip", "tables/data.csv"],
] as const;

/** What a read of a hostile archive ended with, as the child reports it. */
interface Outcome {
  /** Per read: `"read"`, or the error's name, whether a ZipFormatError, its message. */
  results: (
    | { name: string; zip: boolean; member?: string; message: string }
    | "read"
  )[];
  fetched: number;
  /** Store GETs the reads made. */
  gets: number;
  archive: number;
}

/**
 * Serves the archive that `make` (code over `zipArchive` and
 * `repeatedDeflate`) gives as `bomb.zip` (or as `files` says) in a capped
 * child, and runs `reads` (an array expression over `tree` and `fs`) there.
 */
async function hostile(
  make: string,
  reads: string,
  files = `{ "bomb.zip": archive }`,
): Promise<Outcome> {
  const run = await runCapped({
    setup: `
      const { RepoFs } = await import(REPO + "mod.ts");
      const { startEmulator } = await import(REPO + "emulator.ts");
      const { head } = await import(REPO + "text.ts");
      const { zipTree, ZipFormatError } = await import(REPO + "zip.ts");
      const { repeatedDeflate, zipArchive } = await import(REPO + "tests/zip_archive.ts");
      const { default: zlib } = await import("node:zlib");
      const archive = ${make};
      const emu = await startEmulator({ files: ${files} });
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      await fs.ls("");
      const tree = zipTree(fs, "bomb.zip");
      const outcome = (read) => read.then(() => "read", (error) => ({
        name: error.name,
        zip: error instanceof ZipFormatError,
        member: error.member,
        message: error.message,
      }));
    `,
    read: `(async () => {
      emu.resetCounters();
      const results = [];
      for (const read of ${reads}) results.push(await outcome(read()));
      return { results, fetched: emu.counters.storeBytes, gets: emu.counters.storeGets, archive: archive.length };
    })()`,
  }, 300);
  strictEqual(run.code, 0, run.stderr);
  strictEqual(run.killed, false, `peak ${run.peakMb} MB`);
  ok(run.peakMb - run.baselineMb < 300, `${run.peakMb} vs ${run.baselineMb}`);
  return run.result as Outcome;
}

/** 1 GiB of zeros deflated (about 1 MB), declared as `size` bytes in both headers. */
const ZEROS = (size: number) =>
  `(() => {
    const member = repeatedDeflate("zeros.bin", new Uint8Array(1 << 20), 1024);
    return zipArchive([{ ...member, size: ${size} }]);
  })()`;

Deno.test("a member that inflates past its declared size is refused there, by name, in whatever window", async () => {
  const { results, fetched, archive } = await hostile(
    ZEROS(1000),
    `[
      () => tree.catFile("zeros.bin"),
      () => tree.catFile("zeros.bin", { start: 900, end: 1000 }),
      () => new Response(tree.stream("zeros.bin")).arrayBuffer(),
      () => head(tree, "zeros.bin", 1),
    ]`,
  );
  equal(results.length, 4);
  for (const result of results) {
    ok(result !== "read" && result.zip, JSON.stringify(result));
    equal(result.member, "zeros.bin");
    match(
      result.message,
      /^Zip archive "bomb\.zip", member "zeros\.bin": its data holds more than the 1000 bytes the directory says$/,
    );
  }
  ok(fetched < archive, `${fetched} of ${archive}`);
});

Deno.test("a local header naming another file than the central directory is refused, as Python's zipfile refuses it", async () => {
  const { results } = await hostile(
    `zipArchive([{
      name: "report.txt", localName: "evil.sh", method: 0,
      data: new TextEncoder().encode("rm -rf ~\\n"), size: 9,
      crc32: (await import("node:zlib")).crc32("rm -rf ~\\n"),
    }])`,
    `[() => tree.catFile("report.txt"), () => tree.catFile("report.txt", { start: 0, end: 2 })]`,
  );
  for (const result of results) {
    ok(result !== "read" && result.zip, JSON.stringify(result));
    match(
      result.message,
      /member "report\.txt": its local header names "evil\.sh": the central directory and the local header disagree/,
    );
  }
});

Deno.test("a lying local header among members read together in one GET refuses its member by name; the others read", async () => {
  const { results, gets } = await hostile(
    `zipArchive(Array.from({ length: 40 }, (_, i) => {
      const data = new TextEncoder().encode(("member " + i + "\\n").repeat(1000));
      return {
        name: "m" + i + ".txt", method: 0, data, size: data.length,
        crc32: zlib.crc32(data), ...(i === 7 ? { localName: "evil.sh" } : {}),
      };
    }))`,
    `(() => {
      const reads = Array.from({ length: 20 }, (_, i) =>
        tree.catFile("m" + i + ".txt").then((bytes) => {
          const text = new TextDecoder().decode(bytes);
          if (text !== ("member " + i + "\\n").repeat(1000)) throw new Error("wrong bytes");
        })
      );
      reads.forEach((read) => read.catch(() => {}));
      return reads.map((read) => () => read);
    })()`,
  );
  results.forEach((result, i) => {
    if (i !== 7) deepStrictEqual(result, "read", `m${i}.txt`);
  });
  const refused = results[7];
  ok(refused !== "read" && refused.zip, JSON.stringify(refused));
  equal(refused.member, "m7.txt");
  match(refused.message, /its local header names "evil\.sh"/);
  equal(gets, 2); // the tail with the directory, then the first 20 members
});

Deno.test("a local header whose sizes disagree with the central directory is refused", async () => {
  const { results } = await hostile(
    `(() => {
      const member = repeatedDeflate("zeros.bin", new Uint8Array(1 << 20), 1024);
      return zipArchive([{ ...member, size: 1000, localSize: member.size }]);
    })()`,
    `[() => tree.catFile("zeros.bin", { start: 0, end: 10 })]`,
  );
  const [result] = results;
  ok(result !== "read" && result.zip, JSON.stringify(result));
  match(
    result.message,
    /its local header gives its sizes as \d+ compressed and 1073741824 uncompressed, the central directory as \d+ and 1000/,
  );
});

Deno.test("300 entries sharing one local header (the overlapping-member bomb) are each refused", async () => {
  const { results, fetched } = await hostile(
    `(() => {
      const member = repeatedDeflate("m000", new Uint8Array(1 << 20), 100);
      return zipArchive(Array.from({ length: 300 }, (_, i) => ({
        ...member,
        name: "m" + String(i).padStart(3, "0"),
        ...(i > 0 ? { sharesHeaderOf: 0 } : {}),
      })));
    })()`,
    `Array.from({ length: 300 }, (_, i) => () => tree.catFile("m" + String(i).padStart(3, "0")))`,
  );
  equal(results.length, 300);
  for (const [i, result] of results.entries()) {
    ok(result !== "read" && result.zip, JSON.stringify(result));
    match(
      result.message,
      /its local header is also member "m\d{3}"'s: members may not overlap/,
    );
    equal(result.member, `m${String(i).padStart(3, "0")}`);
  }
  ok(fetched < 64 * 1024, `${fetched}`);
});

Deno.test("a member whose data runs over the next member's local header is refused", async () => {
  const { results } = await hostile(
    `(() => {
      const a = repeatedDeflate("a.bin", new Uint8Array(1 << 20), 4);
      const b = repeatedDeflate("b.bin", new Uint8Array(1 << 20), 4);
      const archive = zipArchive([a, b]);
      // a's compressed size, in its directory entry and local header, taken to cover b.
      const view = new DataView(archive.buffer);
      const directory = view.getUint32(archive.length - 6, true);
      const grown = a.data.length + 100;
      view.setUint32(18, grown, true);
      view.setUint32(directory + 20, grown, true);
      return archive;
    })()`,
    `[() => tree.catFile("a.bin"), () => tree.catFile("b.bin")]`,
  );
  const [a, b] = results;
  ok(a !== "read" && a.zip, JSON.stringify(a));
  match(
    a.message,
    /member "a\.bin": its data \(\d+ bytes from \d+\) runs past \d+, where the next member or the central directory starts: members may not overlap/,
  );
  deepStrictEqual(b, "read");
});

Deno.test("damaged members leave no promise to reject unhandled: read whole, in windows, streamed and cancelled, at once", async () => {
  const unhandled: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", listener);
  try {
    const files: Record<string, Uint8Array> = {};
    for (const [archive, member] of DAMAGED) {
      const bytes = await Deno.readFile(new URL(archive, FIXTURES));
      const at = new TextDecoder("latin1").decode(bytes).indexOf(member) +
        member.length;
      bytes.fill(0xff, at + 600, at + 700);
      files[archive] = bytes;
    }
    await using emu = await startEmulator({ files });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    for (const [archive, member] of DAMAGED) {
      const tree = zipTree(fs, archive);
      const stream = tree.stream(member).getReader();
      const outcomes = await Promise.allSettled([
        tree.catFile(member),
        tree.catFile(member, { start: 0, end: 100 }).then(() =>
          tree.catFile(member, { start: 100, end: 60_000 })
        ),
        tree.catFile(member, { start: 50_000, end: 50_001 }),
        stream.read().then(() => stream.cancel()),
        new Response(tree.stream(member)).arrayBuffer(),
      ]);
      const refusals = outcomes.filter((outcome) =>
        outcome.status === "rejected"
      );
      ok(refusals.length >= 3, `${archive}: ${refusals.length} refused`);
      for (const refusal of refusals) {
        const reason = (refusal as PromiseRejectedResult).reason;
        ok(reason instanceof ZipFormatError, `${archive}: ${reason}`);
        equal(reason.member, member);
      }
    }
    // Rejections left unhandled are reported after the current task.
    await new Promise((resolve) => setTimeout(resolve, 50));
    deepStrictEqual(unhandled, []);
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
});

Deno.test("archives with bytes changed in their headers fail only with a ZipFormatError (or a tree's own NotFound), never a bare TypeError or RangeError", async () => {
  let seed = 34;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const originals = await Promise.all(
    ["plain.zip", "deflate64.zip", "zstd.zip", "unicode.zip", "zip64.zip"].map(
      (name) => Deno.readFile(new URL(name, FIXTURES)),
    ),
  );
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 60; i++) {
    const bytes = originals[i % originals.length].slice();
    for (let changes = 1 + i % 4; changes > 0; changes--) {
      // Into the directory and end record, or the first local header.
      const at = random() < 0.6
        ? bytes.length - 1 - Math.floor(random() * 2000)
        : Math.floor(random() * 200);
      bytes[Math.max(0, at)] = Math.floor(random() * 256);
    }
    files[`${i}.zip`] = bytes;
  }
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const others: string[] = [];
  let refused = 0;
  const attempt = async (read: () => Promise<unknown>) => {
    try {
      await read();
    } catch (error) {
      if (error instanceof ZipFormatError) refused++;
      else if ((error as Error).name !== "NotFoundError") {
        others.push(String(error));
      }
    }
  };
  for (const archive of Object.keys(files)) {
    const tree = zipTree(fs, archive);
    let names: string[] = [];
    await attempt(async () => names = await tree.find(""));
    for (const name of names) {
      await attempt(() => tree.catFile(name));
      await attempt(() => tree.catFile(name, { start: 5, end: 3000 }));
    }
  }
  deepStrictEqual(others, []);
  ok(refused > 10, `${refused} refusals`);
});

Deno.test("Deflate64 and Zstandard members that decode past their declared size are refused there; a Zstandard window past zstd's limit is refused", async () => {
  const { results } = await hostile(
    `(() => {
      const shrink = (name) => {
        const bytes = Deno.readFileSync(new URL("fixtures/zip/" + name, REPO));
        const text = new TextDecoder("latin1").decode(bytes);
        const view = new DataView(bytes.buffer);
        // zeros.bin (200,000 bytes) said to be 1,000, in both headers.
        view.setUint32(text.indexOf("zeros.bin") - 30 + 22, 1000, true);
        view.setUint32(text.lastIndexOf("zeros.bin") - 46 + 24, 1000, true);
        return bytes;
      };
      return { deflate64: shrink("deflate64.zip"), zstd: shrink("zstd.zip") };
    })()`,
    `[
      () => zipTree(fs, "deflate64.zip").catFile("zeros.bin"),
      () => zipTree(fs, "zstd.zip").catFile("zeros.bin", { start: 0, end: 1000 }),
      () => zipTree(fs, "wide.zip").catFile("wide.bin"),
    ]`,
    `{
      "deflate64.zip": archive.deflate64,
      "zstd.zip": archive.zstd,
      // A frame asking a 1 GiB window (descriptor 0xa0), then one raw block.
      "wide.zip": zipArchive([{
        name: "wide.bin", method: 93, size: 5,
        crc32: (await import("node:zlib")).crc32("hello"),
        data: Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xa0, 0x29, 0x00, 0x00,
          ...new TextEncoder().encode("hello")),
      }]),
    }`,
  );
  const [deflate64, zstd, wide] = results;
  for (const result of [deflate64, zstd]) {
    ok(result !== "read" && result.zip, JSON.stringify(result));
    match(
      result.message,
      /member "zeros\.bin": its data holds more than the 1000 bytes/,
    );
  }
  ok(wide !== "read" && wide.zip, JSON.stringify(wide));
  match(
    wide.message,
    /member "wide\.bin": its Zstandard data is damaged \(its frame asks a window of 1073741824 bytes/,
  );
});
