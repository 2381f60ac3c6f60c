/**
 * Object headers (versions 1 and 2): the messages that describe a group or
 * a dataset, continuation blocks followed.
 *
 * @module
 */

import { Cursor, type Sizes } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";

/** Header message types this reader uses. */
export const MessageType = {
  dataspace: 0x1,
  linkInfo: 0x2,
  datatype: 0x3,
  fillValueOld: 0x4,
  fillValue: 0x5,
  link: 0x6,
  externalFiles: 0x7,
  layout: 0x8,
  filters: 0xb,
  attribute: 0xc,
  continuation: 0x10,
  symbolTable: 0x11,
  attributeInfo: 0x15,
} as const;

/** One header message. */
export interface Message {
  type: number;
  /** Bit 1: the message is shared (stored elsewhere). */
  flags: number;
  data: Uint8Array;
  /** File address of `data`. */
  at: number;
}

/** Bytes read at first for a header; most fit. */
export const HEADER_GUESS = 512;

/** The messages of the object header at `address`. */
export async function readObjectHeader(
  file: FileReader,
  sizes: Sizes,
  address: number,
): Promise<Message[]> {
  const head = await file.upTo(address, HEADER_GUESS, "an object header");
  const messages: Message[] = [];
  const blocks: { offset: number; length: number }[] = [];
  let version: 1 | 2;
  if (head[0] === 1) {
    version = 1;
    const c = new Cursor(head, sizes, file.path, address);
    c.skip(8);
    const size = c.u32();
    const bytes = await file.bytes(
      { offset: address + 16, length: size },
      "an object header",
    );
    parseBlock(
      new Cursor(bytes, sizes, file.path, address + 16),
      1,
      0,
      messages,
      blocks,
    );
  } else {
    version = 2;
    const c = new Cursor(head, sizes, file.path, address);
    c.signature("OHDR");
    const v = c.u8();
    if (v !== 2) {
      throw new Hdf5FormatError(
        file.path,
        `object header version ${v} at address ${address}`,
      );
    }
    const flags = c.u8();
    if (flags & 0x20) c.skip(16);
    if (flags & 0x10) c.skip(4);
    const sizeBytes = 1 << (flags & 3);
    const size = c.uint(sizeBytes);
    const start = address + c.pos;
    const bytes = await file.bytes(
      { offset: start, length: size },
      "an object header",
    );
    parseBlock(
      new Cursor(bytes, sizes, file.path, start),
      2,
      flags,
      messages,
      blocks,
    );
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      const data = await file.bytes(block, "an object header continuation");
      const bc = new Cursor(data, sizes, file.path, block.offset);
      bc.signature("OCHK");
      const inner = new Cursor(
        data.subarray(4, data.length - 4),
        sizes,
        file.path,
        block.offset + 4,
      );
      parseBlock(inner, 2, flags, messages, blocks);
    }
    return messages;
  }
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    const data = await file.bytes(block, "an object header continuation");
    parseBlock(
      new Cursor(data, sizes, file.path, block.offset),
      version,
      0,
      messages,
      blocks,
    );
  }
  return messages;
}

function parseBlock(
  c: Cursor,
  version: 1 | 2,
  headerFlags: number,
  messages: Message[],
  blocks: { offset: number; length: number }[],
): void {
  const prefix = version === 1 ? 8 : 4 + (headerFlags & 0x4 ? 2 : 0);
  while (c.left >= prefix) {
    const type = version === 1 ? c.u16() : c.u8();
    const size = c.u16();
    const flags = c.u8();
    if (version === 1) c.skip(3);
    else if (headerFlags & 0x4) c.skip(2);
    const at = c.at + c.pos;
    const data = c.take(size);
    if (type === MessageType.continuation) {
      const cc = new Cursor(data, c.sizes, c.path, at);
      if (blocks.length > 10_000) {
        throw new Hdf5FormatError(
          c.path,
          "an object header continues without end",
        );
      }
      blocks.push({ offset: cc.offset(), length: cc.length() });
    } else if (type !== 0) {
      messages.push({ type, flags, data, at });
    }
    if (version === 1) c.align(8);
  }
}

/** The first message of `type`, if any. */
export function messageOf(
  messages: Message[],
  type: number,
): Message | undefined {
  return messages.find((m) => m.type === type);
}
