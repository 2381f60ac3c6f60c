// Behaviour of src/fleet/shards.ts, moved here from the examples on its internal symbols.
import { ok } from "node:assert/strict";
import { SHARD_VARIABLES } from "../../../src/fleet/shards.ts";

Deno.test("SHARD_VARIABLES: The environment variables shardFromEnvironment reads", () => {
  ok(SHARD_VARIABLES.includes("SLURM_ARRAY_TASK_ID"));
});
