/**
 * Committed (named) datatypes: a datatype message, of a dataset or an
 * attribute, that is shared and points to the object header holding the
 * type, each such header read once per file.
 *
 * @module
 */

import { Cursor, type Sizes } from "./cursor.ts";
import { type Datatype, readDatatype } from "./datatype.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";
import { messageOf, MessageType, readObjectHeader } from "./object_header.ts";

/** Resolves committed datatypes of one file. */
export class CommittedTypes {
  readonly #types = new Map<number, Promise<Datatype>>();

  constructor(readonly file: FileReader, readonly sizes: Sizes) {}

  /** The type a shared datatype message in `c` points to. */
  async resolve(c: Cursor): Promise<Datatype> {
    const address = sharedAddress(c);
    if (address === undefined) {
      return {
        class: -1,
        size: 0,
        problem: "datatypes in the shared message heap are not supported",
      };
    }
    let type = this.#types.get(address);
    if (type === undefined) {
      type = this.#read(address);
      this.#types.set(address, type);
    }
    return await type;
  }

  async #read(address: number): Promise<Datatype> {
    const messages = await readObjectHeader(this.file, this.sizes, address);
    const message = messageOf(messages, MessageType.datatype);
    if (message === undefined) {
      throw new Hdf5FormatError(
        this.file.path,
        `the committed datatype at address ${address} has no datatype message`,
      );
    }
    return readDatatype(
      new Cursor(message.data, this.sizes, this.file.path, message.at),
    );
  }
}

/**
 * The object header address of a shared message (versions 1 to 3);
 * `undefined` for one kept in the shared message heap.
 */
function sharedAddress(c: Cursor): number | undefined {
  const version = c.u8();
  const type = c.u8();
  if (version === 1) c.skip(6);
  else if (version !== 2 && version !== 3) {
    throw new Hdf5FormatError(
      c.path,
      `shared message version ${version} at address ${c.at}`,
    );
  }
  if (version === 3 && type !== 2) return undefined;
  return c.offset();
}
