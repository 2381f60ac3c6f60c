// Behaviour of src/api/hidden_redirects.ts, moved here from the examples on its internal symbols.
import { match, strictEqual } from "node:assert/strict";
import {
  fetchHidesRedirects,
  hiddenRedirectError,
  isHiddenRedirect,
} from "../../../src/api/hidden_redirects.ts";

Deno.test("fetchHidesRedirects: Whether `scope` is a browser's (a page or one of its workers), whose `fetch` hides…", () => {
  strictEqual(fetchHidesRedirects(), false); // Deno
  strictEqual(fetchHidesRedirects({ document: {} }), true); // a page
  strictEqual(fetchHidesRedirects({ WorkerGlobalScope: class {} }), true); // a page's worker
  strictEqual(
    fetchHidesRedirects({ WorkerGlobalScope: class {}, Deno: {} }),
    false,
  ); // a Deno worker
});

Deno.test("isHiddenRedirect: Whether `response` is a redirect that `fetch` did not show: what a browser answers to…", () => {
  strictEqual(isHiddenRedirect(new Response(null, { status: 303 })), false);
});

Deno.test("hiddenRedirectError: The error for a file whose content the repository redirects to another server while…", () => {
  const error = hiddenRedirectError(
    "https://repo.example.org/api/access/datafile/7",
  );
  match(error.message, /serves the bytes itself/);
});
