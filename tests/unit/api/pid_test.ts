// Behaviour of src/api/pid.ts, moved here from the examples on its internal symbols.
import { equal, throws } from "node:assert/strict";
import { normalizePid } from "../../../src/api/pid.ts";

Deno.test("normalizePid: The normal form of a dataset's persistent id: the scheme in lower case, the identifier as given", () => {
  equal(normalizePid("DOI:10.5072/FK2/AbC"), "doi:10.5072/FK2/AbC");
  equal(normalizePid("10.5072/FK2/ABC"), "doi:10.5072/FK2/ABC");
  equal(normalizePid("https://doi.org/10.5072/FK2/ABC"), "doi:10.5072/FK2/ABC");
  equal(
    normalizePid("http://dx.doi.org/10.5072%2FFK2%2FABC"),
    "doi:10.5072/FK2/ABC",
  );
  equal(
    normalizePid("https://hdl.handle.net/1902.1/00097-8"),
    "hdl:1902.1/00097-8",
  );
  equal(normalizePid("perma:ABC123"), "perma:ABC123");
  throws(() => normalizePid("doi:10.5072"), /"doi:10\.5072"/);
});
