import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { FormatError, RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { head, lines, tail } from "../text.ts";
import { runCli } from "./support.ts";

const utf8 = new TextEncoder();

/** Each line of `text` with the byte offset it starts at, as a reader of splits owns them. */
function linesAt(text: string): { at: number; line: string }[] {
  const found: { at: number; line: string }[] = [];
  let at = 0;
  const pieces = text.split("\n");
  if (pieces.at(-1) === "") pieces.pop();
  for (const piece of pieces) {
    found.push({ at, line: piece.replace(/\r$/, "") });
    at += utf8.encode(piece).byteLength + 1;
  }
  return found;
}

function owned(text: string, start: number, end: number): string[] {
  return linesAt(text).filter(({ at }) => at >= start && at < end).map((l) =>
    l.line
  );
}

/** Lines of many lengths, some empty, some with \r\n, with two- to four-byte characters. */
function sampleText(lineCount: number): string {
  const words = [
    "Zürich",
    "€",
    "𝄞 clef",
    "",
    "plain ascii",
    "日本語のテキスト",
  ];
  return Array.from({ length: lineCount }, (_, i) => {
    const body = `${i}\t${words[i % words.length]}`.repeat(1 + (i * 7) % 13);
    return body + (i % 5 === 0 ? "\r\n" : "\n");
  }).join("") + "last line, no newline ✓";
}

Deno.test("lines: a window owns the lines that start in it, read to their end", async () => {
  const text = "alpha\nbeta\r\n\ngamma delta\nünï\nlast";
  await using emu = await startEmulator({ files: { "a.txt": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const size = utf8.encode(text).byteLength;
  for (let start = 0; start <= size + 2; start += 3) {
    for (let end = start; end <= size + 3; end += 4) {
      deepStrictEqual(
        await Array.fromAsync(lines(fs, "a.txt", { start, end })),
        owned(text, start, end),
        `window ${start}..${end}`,
      );
    }
  }
  deepStrictEqual(await Array.fromAsync(lines(fs, "a.txt")), [
    "alpha",
    "beta",
    "",
    "gamma delta",
    "ünï",
    "last",
  ]);
  // Byte 6 starts "beta" (byte 5 is \n); byte 7 is inside it.
  deepStrictEqual(
    await Array.fromAsync(lines(fs, "a.txt", { start: 6, end: 7 })),
    ["beta"],
  );
  deepStrictEqual(
    await Array.fromAsync(lines(fs, "a.txt", { start: 7, end: 8 })),
    [],
  );
});

Deno.test("lines: consecutive windows give every line exactly once, across ranges that cut characters", async () => {
  const text = sampleText(12_000);
  const bytes = utf8.encode(text);
  ok(bytes.byteLength > 1_000_000, `${bytes.byteLength} bytes`);
  await using emu = await startEmulator({ files: { "big.tsv": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const all = linesAt(text).map((l) => l.line);
  deepStrictEqual(await Array.fromAsync(lines(fs, "big.tsv")), all);
  for (const step of [65_537, 300_001]) {
    const got: string[] = [];
    for (let start = 0; start < bytes.byteLength; start += step) {
      got.push(
        ...await Array.fromAsync(
          lines(fs, "big.tsv", { start, end: start + step }),
        ),
      );
    }
    deepStrictEqual(got, all, `windows of ${step} bytes`);
  }
});

Deno.test("lines: a window fetches itself and the rest of its last line", async () => {
  const text = Array.from(
    { length: 10_000 },
    (_, i) => String(i).padStart(99, "-") + "\n",
  ).join("");
  await using emu = await startEmulator({ files: { "fixed.txt": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("");
  emu.resetCounters();
  const three = await Array.fromAsync(
    lines(fs, "fixed.txt", { start: 500_050, end: 500_350 }),
  );
  deepStrictEqual(
    three,
    ["5001", "5002", "5003"].map((n) => n.padStart(99, "-")),
  );
  ok(
    emu.counters.storeBytes <= 301 + 16 * 1024,
    `${emu.counters.storeBytes} bytes`,
  );
  emu.resetCounters();
  deepStrictEqual(
    await Array.fromAsync(
      lines(fs, "fixed.txt", { start: 500_050, end: 500_060 }),
    ),
    [],
  );
  strictEqual(emu.counters.storeBytes, 11); // the byte before the window, and the window
});

Deno.test("lines: a character split by the first range's end comes out whole", async () => {
  // "€" is 3 bytes; put it across byte 16,384, where the first range ends.
  const text = "x".repeat(16_383) + "€ and more\n" + "second\n";
  strictEqual(
    utf8.encode(text).subarray(16_383, 16_386).join(),
    utf8.encode("€").join(),
  );
  await using emu = await startEmulator({ files: { "c.txt": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await Array.fromAsync(lines(fs, "c.txt")), [
    "x".repeat(16_383) + "€ and more",
    "second",
  ]);
  deepStrictEqual(await Array.fromAsync(lines(fs, "c.txt", { start: 1 })), [
    "second",
  ]);
});

Deno.test("head and tail read only what they need", async () => {
  const text = sampleText(6_000);
  const bytes = utf8.encode(text);
  const all = linesAt(text).map((l) => l.line);
  await using emu = await startEmulator({ files: { "big.csv": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("");

  emu.resetCounters();
  deepStrictEqual(await head(fs, "big.csv", 5), all.slice(0, 5));
  ok(
    emu.counters.storeBytes <= 16 * 1024,
    `head 5: ${emu.counters.storeBytes} bytes`,
  );

  emu.resetCounters();
  deepStrictEqual(await tail(fs, "big.csv", 5), all.slice(-5));
  ok(
    emu.counters.storeBytes <= 16 * 1024,
    `tail 5: ${emu.counters.storeBytes} bytes`,
  );

  // 3,000 lines: about half the file; growing ranges fetch at most twice that, and never all.
  const half = bytes.byteLength - linesAt(text).at(-3_000)!.at;
  emu.resetCounters();
  deepStrictEqual(await tail(fs, "big.csv", 3_000), all.slice(-3_000));
  ok(
    emu.counters.storeBytes <= 2 * half + 16 * 1024,
    `tail 3000: ${emu.counters.storeBytes} bytes`,
  );
  ok(emu.counters.storeBytes < bytes.byteLength);

  emu.resetCounters();
  deepStrictEqual(await head(fs, "big.csv", 3_000), all.slice(0, 3_000));
  ok(emu.counters.storeBytes <= 2 * (bytes.byteLength - half) + 16 * 1024);

  deepStrictEqual(await tail(fs, "big.csv", 100_000), all);
  deepStrictEqual(await head(fs, "big.csv", 100_000), all);
  deepStrictEqual(await head(fs, "big.csv", 0), []);
  await rejects(head(fs, "big.csv", -1), TypeError);
  await rejects(tail(fs, "big.csv", 1.5), TypeError);
});

Deno.test("tail and lines of an ingested .tab file read to its true end, past its listed size", async () => {
  const content = "name\tvalue\n" +
    Array.from({ length: 2_000 }, (_, i) => `row${i}\t${i * 3}`).join("\n") +
    "\n";
  await using emu = await startEmulator({
    files: {
      // Served longer than listed, as real installations serve a .tab file.
      "t/obs.tab": {
        content,
        tabular: true,
        listedSize: Math.floor(content.length / 2),
      },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const info = await fs.info("t/obs.tab");
  ok(
    info.tabular && info.size! < content.length,
    `listed ${info.size} of ${content.length}`,
  );
  deepStrictEqual(await tail(fs, "t/obs.tab", 2), [
    "row1998\t5994",
    "row1999\t5997",
  ]);
  deepStrictEqual(await head(fs, "t/obs.tab", 2), ["name\tvalue", "row0\t0"]);
  const all = await Array.fromAsync(lines(fs, "t/obs.tab"));
  strictEqual(all.length, 2_001);
  strictEqual(all.at(-1), "row1999\t5997");
  const fromListedEnd = await Array.fromAsync(
    lines(fs, "t/obs.tab", { start: info.size! }),
  );
  deepStrictEqual(fromListedEnd, all.slice(all.length - fromListedEnd.length));
  ok(fromListedEnd.length > 0);
});

Deno.test("lines, head and tail through a pool give the same lines", async () => {
  const text = sampleText(500);
  await using emu = await startEmulator({ files: { "a.csv": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const all = linesAt(text).map((l) => l.line);
  deepStrictEqual(
    await Array.fromAsync(lines(pool, "a.csv", { start: 1_000, end: 9_000 })),
    owned(text, 1_000, 9_000),
  );
  deepStrictEqual(await head(pool, "a.csv", 3), all.slice(0, 3));
  deepStrictEqual(await tail(pool, "a.csv", 3), all.slice(-3));
});

Deno.test("lines: an empty file, a window past the end, and bad offsets", async () => {
  await using emu = await startEmulator({
    files: { "empty.txt": "", "one.txt": "\n" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await Array.fromAsync(lines(fs, "empty.txt")), []);
  deepStrictEqual(await tail(fs, "empty.txt", 3), []);
  deepStrictEqual(await Array.fromAsync(lines(fs, "one.txt")), [""]);
  deepStrictEqual(await tail(fs, "one.txt", 3), [""]);
  deepStrictEqual(
    await Array.fromAsync(lines(fs, "one.txt", { start: 5, end: 10 })),
    [],
  );
  await rejects(
    Array.fromAsync(lines(fs, "one.txt", { start: -1 })),
    TypeError,
  );
});

Deno.test("CLI: cat --head N and --tail N print lines; with --start they are refused", async () => {
  const content = "name\tvalue\n" +
    Array.from({ length: 500 }, (_, i) => `row${i}\t${i}`).join("\n") + "\n";
  await using emu = await startEmulator({
    files: {
      "obs.tab": {
        content,
        tabular: true,
        listedSize: Math.floor(content.length / 2),
      },
    },
  });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const first = await runCli([...target, "cat", "obs.tab", "--head", "2"]);
  deepStrictEqual([first.code, first.stdout], [0, "name\tvalue\nrow0\t0\n"]);
  const last = await runCli([...target, "cat", "obs.tab", "--tail", "2"]);
  deepStrictEqual([last.code, last.stdout], [0, "row498\t498\nrow499\t499\n"]);
  const both = await runCli([
    ...target,
    "cat",
    "obs.tab",
    "--tail",
    "2",
    "--start",
    "5",
  ]);
  strictEqual(both.code, 2);
  ok(both.stderr.includes("--tail, --start do not go together"), both.stderr);
});

Deno.test("tail gives the last n lines for every n, with trailing newline or without, across its backward blocks", async () => {
  const text = sampleText(3_000);
  const all = linesAt(text).map((l) => l.line);
  const bare = text.replace(/\n$/, "");
  await using emu = await startEmulator({
    files: { "a.txt": text, "b.txt": bare, "c.txt": "x\n\n\ny" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const n of [1, 2, 7, 100, 999, 2_999, 3_000, 3_001]) {
    deepStrictEqual(await tail(fs, "a.txt", n), all.slice(-n), `a.txt ${n}`);
    deepStrictEqual(await tail(fs, "b.txt", n), all.slice(-n), `b.txt ${n}`);
  }
  deepStrictEqual(await tail(fs, "c.txt", 3), ["", "", "y"]);
  deepStrictEqual(await tail(fs, "c.txt", 9), ["x", "", "", "y"]);
});

Deno.test("maxLineBytes: a line longer than the limit is a FormatError naming it; lines within it read", async () => {
  const long = "L".repeat(5_000);
  const text = `head\n${long}\nx\ny\n`;
  await using emu = await startEmulator({ files: { "l.txt": text } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const limit = { maxLineBytes: 4_096 };
  const named = (error: unknown) =>
    error instanceof FormatError &&
    /longer than 4096 bytes \(the maxLineBytes limit\)/.test(error.message) &&
    error.message.includes('"l.txt"');
  await rejects(Array.fromAsync(lines(fs, "l.txt", limit)), named);
  await rejects(head(fs, "l.txt", 2, limit), named);
  await rejects(tail(fs, "l.txt", 3, limit), named);
  // The lines wanted are all shorter than the limit: no refusal.
  deepStrictEqual(await head(fs, "l.txt", 1, limit), ["head"]);
  deepStrictEqual(await tail(fs, "l.txt", 2, limit), ["x", "y"]);
  // A line exactly at the limit is read.
  deepStrictEqual(await tail(fs, "l.txt", 3, { maxLineBytes: 5_000 }), [
    long,
    "x",
    "y",
  ]);
  deepStrictEqual(await head(fs, "l.txt", 2, { maxLineBytes: 5_000 }), [
    "head",
    long,
  ]);
  await rejects(head(fs, "l.txt", 1, { maxLineBytes: 0 }), TypeError);
});
