// Behaviour of src/emulator/listings.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { noSuchEndpoint } from "../../../src/emulator/listings.ts";
import { filePid } from "../../../src/emulator/metadata.ts";

Deno.test("listingAnswer: The dataset endpoint (`versionName` undefined) or a version endpoint", async () => {
  await using emu = await startEmulator({
    versions: { "1.0": { "a.txt": "old" } },
  });
  const version = (name: string) =>
    fetch(
      `${emu.host}/api/datasets/:persistentId/versions/${name}?persistentId=${emu.pid}`,
    );
  const { data } = await (await version("1.0")).json();
  strictEqual(data.versionState, "RELEASED");
  strictEqual(data.files[0].label, "a.txt");
  const missing = await version("2.0");
  strictEqual(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("filePageAnswer: `/versions/{v}/files`: `limit` files (at most `maxPageSize`) from `offset` on, with…", async () => {
  await using emu = await startEmulator({ files: { a: "1", b: "2", c: "3" } });
  const response = await fetch(
    `${emu.host}/api/datasets/:persistentId/versions/:latest/files?persistentId=${emu.pid}&limit=2&offset=1`,
  );
  const page = await response.json();
  deepStrictEqual(page.data.map((file: { label: string }) => file.label), [
    "b",
    "c",
  ]);
  strictEqual(page.totalCount, 3);
});

Deno.test("versionListAnswer: `/versions`: every version, newest first, without files", async () => {
  await using emu = await startEmulator({
    versions: { "1.0": { "a.txt": "old" } },
  });
  const response = await fetch(
    `${emu.host}/api/datasets/:persistentId/versions?persistentId=${emu.pid}`,
  );
  const { data } = await response.json();
  deepStrictEqual(data.map((v: { id: number }) => v.id), [2, 1]);
  strictEqual("files" in data[0], false);
});

Deno.test("filePidAnswer: `/api/files/:persistentId/`: the file entry of the file with that persistent id and the…", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hi" },
    filePids: true,
  });
  const pid = filePid(emu.pid, emu.fileId("a.txt"));
  const response = await fetch(
    `${emu.host}/api/files/:persistentId/?persistentId=${pid}`,
  );
  const { data } = await response.json();
  strictEqual(data.label, "a.txt");
  strictEqual(data.datasetVersion.datasetPersistentId, emu.pid);
});

Deno.test("a rule's body replaces a JSON answer once", async () => {
  await using emu = await startEmulator({
    faults: { rules: [{ route: "collection", body: '{"status":"O' }] },
  });
  const contents = () => fetch(`${emu.host}/api/repos/root/contents`);
  await rejects((await contents()).json(), SyntaxError); // cut in half
  strictEqual((await (await contents()).json()).status, "OK");
});

Deno.test("noSuchEndpoint: The 404 of a path no route takes", async () => {
  const response = noSuchEndpoint();
  strictEqual(response.status, 404);
  strictEqual(
    (await response.json()).message,
    "API endpoint does not exist on this server.",
  );
});
