import { deepStrictEqual, throws } from "node:assert/strict";
import { RepoChangedError } from "../../../src/base/errors.ts";
import { SameObject } from "../../../src/content/same_object.ts";

const V1 = { etag: '"v1"', lastModified: null };

Deno.test("a SameObject made from known validators sends them and reads them out", () => {
  const object = new SameObject(V1);
  deepStrictEqual(object.pinned, V1);
  deepStrictEqual(object.conditions(), { "If-Match": '"v1"' });
  deepStrictEqual(new SameObject().pinned, undefined);
});

Deno.test("adopt pins the first validators, then holds later ones to them", () => {
  const object = new SameObject();
  object.adopt(V1, "f.bin");
  deepStrictEqual(object.pinned, V1);
  object.adopt(V1, "f.bin");
  object.adopt({ etag: null, lastModified: null }, "f.bin");
  throws(
    () => object.adopt({ etag: '"v2"', lastModified: null }, "f.bin"),
    (e: unknown) =>
      e instanceof RepoChangedError &&
      e.message.includes('ETag "v1", then "v2"'),
  );
  const none = new SameObject({ etag: null, lastModified: null });
  throws(() => none.adopt(V1, "f.bin"), RepoChangedError);
});
