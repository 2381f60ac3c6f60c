// Behaviour of src/fleet/coordinator_connection.ts, moved here from the examples on its internal symbols.
import { rejects, strictEqual, throws } from "node:assert/strict";
import {
  checkCoordinatorUrl,
  CoordinatorConnection,
} from "../../../src/fleet/coordinator_connection.ts";

Deno.test("checkCoordinatorUrl: `redis://host:port` (or `rediss://`, with a user, password or database) checked;…", () => {
  strictEqual(
    checkCoordinatorUrl("redis://127.0.0.1:6379"),
    "redis://127.0.0.1:6379",
  );
  throws(() => checkCoordinatorUrl("http://127.0.0.1:6379"), TypeError);
});

Deno.test("CoordinatorConnection: The connection to one coordinator, shared by overlapping uses", async () => {
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
