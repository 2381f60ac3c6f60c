/**
 * Global heap collections: where variable-length values (strings, lists of
 * references) of attributes are kept.
 *
 * @module
 */

import { Cursor, type Sizes } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";

/** Reads objects of global heap collections, each collection once. */
export class GlobalHeap {
  readonly #collections = new Map<number, Promise<Map<number, Uint8Array>>>();

  constructor(readonly file: FileReader, readonly sizes: Sizes) {}

  /** Object `index` of the collection at `address`. */
  async object(address: number, index: number): Promise<Uint8Array> {
    let collection = this.#collections.get(address);
    if (collection === undefined) {
      collection = this.#read(address);
      this.#collections.set(address, collection);
    }
    const object = (await collection).get(index);
    if (object === undefined) {
      throw new Hdf5FormatError(
        this.file.path,
        `global heap object ${index} is not in the collection at ${address}`,
      );
    }
    return object;
  }

  async #read(address: number): Promise<Map<number, Uint8Array>> {
    const head = await this.file.bytes({
      offset: address,
      length: 8 + this.sizes.lengths,
    }, "a global heap");
    const hc = new Cursor(head, this.sizes, this.file.path, address);
    hc.signature("GCOL");
    hc.skip(4);
    const size = hc.length();
    const bytes = await this.file.bytes(
      { offset: address, length: size },
      "a global heap",
    );
    const c = new Cursor(bytes, this.sizes, this.file.path, address);
    c.skip(8 + this.sizes.lengths);
    const objects = new Map<number, Uint8Array>();
    while (c.left >= 8 + this.sizes.lengths) {
      const index = c.u16();
      c.skip(6);
      const length = c.length();
      if (index === 0) break;
      objects.set(index, c.take(length));
      c.align(8);
    }
    return objects;
  }
}
