import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { UrlSigner } from "../src/emulator/signing.ts";
import { buildDataset, findVersion } from "../src/emulator/dataset.ts";
import { collectSources, toFileSpec } from "../src/emulator/sources.ts";

Deno.test("the signer signs and checks store URLs", () => {
  const signer = new UrlSigner(3600);
  const url = new URL(
    `http://store.example/bucket/key${signer.sign("/bucket/key")}`,
  );
  strictEqual(signer.verify(url), "valid");
  url.searchParams.set("X-Amz-Expires", "86400"); // tampered with
  strictEqual(signer.verify(url), "invalid");
});

Deno.test("sign gives the query string", () => {
  const query = new URLSearchParams(new UrlSigner(60).sign("/bucket/key"));
  strictEqual(query.get("X-Amz-Expires"), "60");
  strictEqual(query.get("X-Amz-Algorithm"), "AWS4-HMAC-SHA256");
});

Deno.test("verify checks signature, then expiry", () => {
  const signer = new UrlSigner(60);
  const query = signer.sign("/b/k");
  strictEqual(signer.verify(new URL(`http://store/b/k${query}`)), "valid");
  strictEqual(
    signer.verify(new URL(`http://store/b/other${query}`)),
    "invalid",
  );
  signer.expireAll();
  strictEqual(signer.verify(new URL(`http://store/b/k${query}`)), "expired");
});

Deno.test("expireAll expires every signed URL", () => {
  const signer = new UrlSigner(60);
  const before = new URL(`http://store/b/k${signer.sign("/b/k")}`);
  signer.expireAll();
  strictEqual(signer.verify(before), "expired");
  const after = new URL(`http://store/b/k${signer.sign("/b/k")}`);
  strictEqual(signer.verify(after), "valid");
});

Deno.test("a dataset version holds its files", () => {
  const dataset = buildDataset(
    { main: [{ filename: "a", file: "x" }], versions: {} },
    "doi:1/2",
    "root",
  );
  strictEqual(findVersion(dataset, ":latest")?.idsByPath.get("a"), 1001);
});

Deno.test("the dataset holds its versions", () => {
  const dataset = buildDataset(
    { main: [], versions: {} },
    "doi:10.5072/FK2/X",
    "root",
  );
  strictEqual(dataset.filesById.size, 0);
});

Deno.test("buildDataset builds versions from sources", () => {
  const dataset = buildDataset(
    {
      main: [{ directoryLabel: "d", filename: "a", file: "x" }],
      versions: {
        "1.0": [{ directoryLabel: "d", filename: "a", file: "old" }],
      },
    },
    "doi:10.5072/FK2/X",
    "root",
  );
  strictEqual(
    dataset.filesById.get(1001)?.contentType,
    "application/octet-stream",
  );
  strictEqual(dataset.named.get("1.0")?.idsByPath.get("d/a"), 1002);
});

Deno.test("findVersion finds named and main versions", () => {
  const dataset = buildDataset({ main: [], versions: {} }, "doi:1/2", "root");
  strictEqual(findVersion(dataset, "1.0"), undefined);
  strictEqual(findVersion(dataset), dataset.main);
  strictEqual(findVersion(dataset, ":draft"), dataset.main);
});

Deno.test("sources are collected per version", async () => {
  const sources = await collectSources({
    files: { "a/b.txt": "hi", "c.txt": "ho" },
  });
  deepStrictEqual(sources.main, [
    { directoryLabel: "a", filename: "b.txt", file: "hi" },
    { filename: "c.txt", file: "ho" },
  ]);
});

Deno.test("every content form gives a file spec", () => {
  deepStrictEqual(toFileSpec("hi"), { content: "hi" });
  deepStrictEqual(toFileSpec({ content: "hi", restricted: true }), {
    content: "hi",
    restricted: true,
  });
});
