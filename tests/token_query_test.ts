// tokenQuery: the token's query parameter where a browser's fetch hides
// redirects (the explorer's case, shown in Chromium by tests/explorer_test.ts).
// Here: the option is checked and travels with the instance, and it changes
// nothing where redirects are seen.

import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";

const TOKEN = `tok-${crypto.randomUUID()}`;

Deno.test("tokenQuery is checked, kept by serialize, and the token stays in its header where redirects show", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hello" },
    token: TOKEN,
  });
  throws(
    () => new RepoFs({ host: emu.host, pid: emu.pid, tokenQuery: "a b" }),
    /tokenQuery must be a query parameter name/,
  );
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: TOKEN,
    tokenQuery: "key",
  });
  strictEqual(
    new TextDecoder().decode(await fs.catFile("a.txt")),
    "hello",
  );
  strictEqual(emu.counters.storeRequestsWithToken, 0);
  const copy = RepoFs.fromSerialized(structuredClone(fs.serialize()));
  strictEqual(copy.serialize().options.tokenQuery, "key");
  deepStrictEqual(await copy.find(""), ["a.txt"]);
});

Deno.test("the emulator takes the token as `key` in the query, as Dataverse does", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hi" },
    token: TOKEN,
  });
  const listing =
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`;
  const refused = await fetch(listing);
  strictEqual(refused.status, 401);
  await refused.body?.cancel();
  const keyed = await fetch(`${listing}&key=${encodeURIComponent(TOKEN)}`);
  strictEqual(keyed.status, 200);
  await keyed.body?.cancel();
});
