// Behaviour of src/fleet/coordinator.ts, moved here from the examples on its internal symbols.
import { rejects } from "node:assert/strict";
import { Coordinator } from "../../../src/fleet/coordinator.ts";
import { DownloadUrls } from "../../../src/urls/download_urls.ts";

Deno.test("Coordinator: One repository's share of a coordinator, for the DownloadUrls of one `RepoFs`", async () => {
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
