// Behaviour of src/zarr/part_decoders.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import {
  offerPartDecoder,
  partDecoderOf,
} from "../../../src/zarr/part_decoders.ts";

Deno.test("offerPartDecoder: Makes `decoder` the way `getArray` reads arrays of `source`", () => {
  const source = {};
  const decoder = { workers: 2, read: () => Promise.resolve([]) };
  offerPartDecoder(source, decoder);
  strictEqual(partDecoderOf(source), decoder);
});

Deno.test("partDecoderOf: The decoder `source` offered, if any", () => {
  strictEqual(partDecoderOf({}), undefined);
});
