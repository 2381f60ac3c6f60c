// Behaviour of src/emulator/cors.ts, moved here from the examples on its internal symbols.
import { equal } from "node:assert/strict";
import { withCors } from "../../../src/emulator/cors.ts";

Deno.test("withCors: `handler` with CORS: a preflight (`OPTIONS`) is answered 204 at once, allowing `GET` and `HEAD`…", async () => {
  const handler = withCors(
    () => Promise.resolve(new Response("ok")),
    "X-Repo-key",
  );
  const preflight = await handler(
    new Request("http://x/", { method: "OPTIONS" }),
  );
  equal(preflight.status, 204);
  equal(
    preflight.headers.get("access-control-allow-headers"),
    "Range, Accept, X-Repo-key",
  );
  const answer = await handler(new Request("http://x/"));
  equal(answer.headers.get("access-control-allow-origin"), "*");
  await answer.body?.cancel();
});
