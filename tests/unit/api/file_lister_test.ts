// Behaviour of src/api/file_lister.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { FileLister } from "../../../src/api/file_lister.ts";
import { RepoApi } from "../../../src/api/repo_api.ts";
import { RoutingTable } from "../../../src/tree/routing_table.ts";

Deno.test("FileLister: Lists one repository's dataset versions", async () => {
  await using emu = await startEmulator({
    files: { "a/b.txt": "x", "c.txt": "yz" },
    maxPageSize: 1,
  });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const lister = new FileLister(api, console);
  const table = await lister.list(
    emu.pid,
    ":latest",
    () => RoutingTable.builder(),
  );
  deepStrictEqual(table.find(""), ["a/b.txt", "c.txt"]);
  strictEqual(emu.counters.listingCalls, 2); // one page per file here
});
