// Behaviour of src/content/refusal.ts, moved here from the examples on its internal symbols.
import { equal } from "node:assert/strict";
import { RepoHttpError } from "../../../src/base/errors.ts";
import { explainRefusal } from "../../../src/content/refusal.ts";

Deno.test("explainRefusal: `error`, or, when it is the repository's 403 for a file the listing marks restricted or…", () => {
  const refused = new RepoHttpError(
    403,
    "https://r.example/api/access/datafile/7",
    "Not authorized.",
  );
  const file = {
    id: 7,
    size: 3,
    restricted: true,
    embargoedUntil: "2999-01-01",
  };
  const explained = explainRefusal(
    refused,
    file,
    "https://r.example/api",
    false,
  ) as Error;
  equal(
    explained.message,
    "HTTP 403 from https://r.example/api/access/datafile/7: Not authorized. (the file is embargoed until 2999-01-01; no API token was sent)",
  );
  equal(
    explainRefusal(refused, { id: 7, size: 3 }, "https://r.example/api", false),
    refused,
  );
});
