import { ok, rejects, strictEqual, throws } from "node:assert/strict";
import {
  checkCoordinatorUrl,
  CoordinatorConnection,
} from "../src/fleet/coordinator_connection.ts";
import {
  FINISH,
  GET_OR_CLAIM,
  RENEW,
  TAKE_PLACE,
} from "../src/fleet/coordinator_scripts.ts";
import { Coordinator } from "../src/fleet/coordinator.ts";
import { DownloadUrls } from "../src/urls/download_urls.ts";

Deno.test("coordinator URLs are checked", () => {
  strictEqual(
    checkCoordinatorUrl("redis://127.0.0.1:6379"),
    "redis://127.0.0.1:6379",
  );
  throws(() => checkCoordinatorUrl("http://127.0.0.1:6379"), TypeError);
});

Deno.test("the coordinator connection is shared", async () => {
  // Nothing listens on port 9 of the loopback: the use fails, naming the coordinator.
  const connection = new CoordinatorConnection("redis://127.0.0.1:9");
  await rejects(
    connection.use((eval_) => eval_("return 1", [], [])),
    {
      name: "CoordinatorError",
      message: /^The coordinator redis:\/\/127\.0\.0\.1:9 cannot be used/,
    },
  );
});

Deno.test("GET_OR_CLAIM claims with NX", () => {
  ok(GET_OR_CLAIM.includes("'NX'"));
});

Deno.test("TAKE_PLACE takes a lease", () => {
  ok(TAKE_PLACE.includes("return -1"));
});

Deno.test("RENEW extends leases", () => {
  ok(RENEW.includes("PEXPIRE"));
});

Deno.test("FINISH stores the URL and frees leases", () => {
  ok(FINISH.includes("'PX'"));
});

Deno.test("a coordinator that cannot connect sends no HEAD", async () => {
  // Nothing listens on port 9: the lookup fails, and no HEAD is sent.
  const fleet = new Coordinator(
    "redis://127.0.0.1:9",
    "https://repo.example.org/api",
    3,
  );
  let heads = 0;
  const urls = new DownloadUrls(
    () => (heads++,
      Promise.resolve({ url: "https://s3.example/7", direct: false })),
    3,
    undefined,
    undefined,
    fleet,
  );
  await rejects(urls.resolve({ id: 7 }), { name: "CoordinatorError" });
  if (heads !== 0) throw new Error("a HEAD was sent without the coordinator");
});
