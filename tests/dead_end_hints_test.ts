/**
 * Helpful dead ends: a missing path offers a near name of the folder that
 * would hold it (case, or one edit away); a pattern that matches nothing in
 * the dataset says what matches inside its zip archives and how to reach
 * it, and archives are opened only then.
 */

import { equal } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { runCli } from "./support.ts";

const PLAIN = Deno.readFileSync(
  new URL("../fixtures/zip/plain.zip", import.meta.url),
);

const FILES = {
  "tables/stations.tab": "station\n",
  "tables/runs.tab": "run\n",
  "docs/methods.txt": "m\n",
  "archive/plain.zip": PLAIN,
  "copy.zip": PLAIN,
  "notes.txt": "n\n",
};

Deno.test("a missing path: did you mean a near name (case or one edit), the rest of the path kept", async () => {
  await using emu = await startEmulator({ files: FILES });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const cases: [string[], string][] = [
    [["ls", "Tables"], '"Tables"; did you mean "tables"?'],
    [["ls", "table"], '"table"; did you mean "tables"?'],
    [
      ["cat", "Tables/stations.tab"],
      '"Tables/stations.tab"; did you mean "tables/stations.tab"?',
    ],
    [
      ["info", "tables/station.tab"],
      '"tables/station.tab"; did you mean "tables/stations.tab"?',
    ],
    [["tree", "doc"], '"doc"; did you mean "docs"?'],
    [["ls", "note.txt"], '"note.txt"; did you mean "notes.txt"?'],
    [
      ["cat", "copy.zip!/Docs/readme.txt"],
      '"copy.zip!/Docs/readme.txt"; did you mean "copy.zip!/docs/readme.txt"?',
    ],
    [["ls", "nothing-near"], '"nothing-near"'],
    [["ls", "tbls"], '"tbls"'],
  ];
  const runs = await Promise.all(
    cases.map(([args]) => runCli([...target, ...args])),
  );
  runs.forEach((run, i) => {
    equal(run.code, 1, run.stderr);
    equal(
      run.stderr,
      `repo-fs: No such file or directory in the dataset: ${cases[i][1]}\n`,
    );
  });
});

Deno.test("a pattern that matches nothing names the members of zip archives it matches, and how to reach them", async () => {
  await using emu = await startEmulator({ files: FILES });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const csv = await runCli([...target, "glob", "**/*.csv"]);
  equal(csv.code, 1);
  equal(
    csv.stderr,
    'repo-fs: no file matches "**/*.csv"; 2 members of zip archives match: "archive/plain.zip!/**/*.csv", "copy.zip!/**/*.csv"\n',
  );
  const reached = await runCli([...target, "glob", "copy.zip!/**/*.csv"]);
  equal(reached.stdout, "copy.zip!/tables/data.csv\n", reached.stderr);

  const before = emu.counters.storeGets;
  const found = await runCli([...target, "glob", "**/*.tab"]);
  equal(found.code, 0, found.stderr);
  equal(
    emu.counters.storeGets,
    before,
    "a pattern that matched opens no archive",
  );

  const none = await runCli([...target, "glob", "**/*.nc"]);
  equal(none.stderr, 'repo-fs: no file matches "**/*.nc"\n');
});
