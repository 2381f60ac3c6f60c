// Behaviour of src/emulator/signing.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { UrlSigner } from "../../../src/emulator/signing.ts";

Deno.test("UrlSigner: Signs store paths for GET and checks signed URLs", () => {
  const signer = new UrlSigner(3600);
  const url = new URL(
    `http://store.example/bucket/key${signer.sign("/bucket/key")}`,
  );
  strictEqual(signer.verify(url), "valid");
  url.searchParams.set("X-Amz-Expires", "86400"); // tampered with
  strictEqual(signer.verify(url), "invalid");
});

Deno.test("UrlSigner.sign: The query string (with its `?`) that makes `path` fetchable by GET", () => {
  const query = new URLSearchParams(new UrlSigner(60).sign("/bucket/key"));
  strictEqual(query.get("X-Amz-Expires"), "60");
  strictEqual(query.get("X-Amz-Algorithm"), "AWS4-HMAC-SHA256");
});

Deno.test("UrlSigner.verify: Checks a URL's signature, then its expiry", () => {
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

Deno.test("UrlSigner.expireAll: Expires every URL signed so far", () => {
  const signer = new UrlSigner(60);
  const before = new URL(`http://store/b/k${signer.sign("/b/k")}`);
  signer.expireAll();
  strictEqual(signer.verify(before), "expired");
  const after = new URL(`http://store/b/k${signer.sign("/b/k")}`);
  strictEqual(signer.verify(after), "valid");
});
