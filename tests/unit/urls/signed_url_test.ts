// Behaviour of src/urls/signed_url.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import {
  isNearExpiry,
  urlExpiry,
  usableUntil,
} from "../../../src/urls/signed_url.ts";

Deno.test("urlExpiry: When a pre-signed URL stops working, in epoch milliseconds: `X-Amz-Date` plus `X-Amz-Expires`", () => {
  const url =
    "https://s3.example/b/k?X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600";
  strictEqual(
    new Date(urlExpiry(url)).toISOString(),
    "2026-01-01T01:00:00.000Z",
  );
  strictEqual(urlExpiry("https://example.org/plain"), Infinity);
});

Deno.test("usableUntil: When a URL with this expiry stops being handed out: the last tenth of its lifetime (at most…", () => {
  strictEqual(usableUntil(3_600_000, 3_600_000), 3_570_000);
  strictEqual(usableUntil(60_000, 60_000), 54_000);
});

Deno.test("isNearExpiry: Whether a URL with this expiry should be re-resolved now: past usableUntil", () => {
  strictEqual(isNearExpiry(Date.now() + 3_600_000, 3_600_000), false);
  strictEqual(isNearExpiry(Date.now() + 1_000, 3_600_000), true);
});
