/**
 * Walks an HDF5 file's groups from the root, level by level (all object
 * headers of a level fetched at once), into groups and datasets with their
 * attributes.
 *
 * @module
 */

import { type Attribute, readAttribute } from "./attributes.ts";
import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { type Dataspace, readDataspace } from "./dataspace.ts";
import { type Datatype, readDatatype } from "./datatype.ts";
import { CommittedTypes } from "./committed_types.ts";
import { denseAttributes, denseLinks } from "./dense.ts";
import { Hdf5FormatError } from "./errors.ts";
import { FormatError } from "../../base/format_error.ts";
import type { FileReader } from "./file_reader.ts";
import { readFillValue, readOldFillValue } from "./fill_value.ts";
import { type Filter, readFilters } from "./filters.ts";
import { type Layout, readLayout } from "./layout.ts";
import { type Link, readDenseInfo, readLink } from "./links.ts";
import {
  HEADER_GUESS,
  type Message,
  messageOf,
  MessageType,
  readObjectHeader,
} from "./object_header.ts";
import { symbolTableLinks } from "./symbol_table.ts";

/** A dataset's description. */
export interface Dataset {
  type: Datatype;
  /** `undefined` for a null dataspace. */
  space: Dataspace | undefined;
  layout: Layout;
  filters: Filter[];
  fill: Uint8Array | undefined;
}

/** A group or dataset of the file. */
export interface Hdf5Object {
  /** Path from the root, `""` for the root, `a/b` below. */
  path: string;
  /** Object header address: what references point to. */
  address: number;
  attributes: Attribute[];
  /** Why each attribute that cannot be read cannot. */
  attributeProblems: string[];
  /** Present for a dataset. */
  dataset?: Dataset;
  /** Why the object cannot be read, when it cannot. */
  unreadable?: string;
  /** True for a committed datatype (neither group nor dataset). */
  committedType?: boolean;
}

/** Every group and dataset reachable from the root, parents before children. */
export async function walkHierarchy(
  file: FileReader,
  sizes: Sizes,
  root: number,
): Promise<Hdf5Object[]> {
  const objects: Hdf5Object[] = [];
  const types = new CommittedTypes(file, sizes);
  const seen = new Set<number>();
  let level: Link[] = [{ name: "", address: root }];
  while (level.length > 0) {
    level = level.filter(({ address }) =>
      !seen.has(address) && seen.add(address)
    );
    await file.prefetch(
      level.filter(({ address }) => file.holds(address)).map(({ address }) => ({
        offset: address,
        length: HEADER_GUESS,
      })),
      "an object header",
    );
    const read = await Promise.all(level.map(async (link) => {
      try {
        const messages = await readObjectHeader(file, sizes, link.address);
        const [object, children] = await Promise.all([
          describe(file, sizes, link, messages, types),
          childLinks(file, sizes, messages),
        ]);
        const prefix = link.name === "" ? "" : `${link.name}/`;
        return {
          object,
          children: children.map((child) => ({
            ...child,
            name: prefix + child.name,
          })),
        };
      } catch (error) {
        // Below the root, what cannot be read is that object's problem alone.
        if (link.name === "" || !(error instanceof FormatError)) throw error;
        const object: Hdf5Object = {
          path: link.name,
          address: link.address,
          attributes: [],
          attributeProblems: [],
          unreadable: error.problem,
        };
        return { object, children: [] };
      }
    }));
    objects.push(
      ...read.map(({ object }) => object).filter((o) => !o.committedType),
    );
    level = read.flatMap(({ object, children }) =>
      object.dataset ? [] : children
    );
  }
  return objects;
}

async function describe(
  file: FileReader,
  sizes: Sizes,
  link: Link,
  messages: Message[],
  types: CommittedTypes,
): Promise<Hdf5Object> {
  const cursor = (m: Message) => new Cursor(m.data, sizes, file.path, m.at);
  const attributes: Attribute[] = [];
  const attributeProblems: string[] = [];
  for (const m of messages) {
    if (m.type !== MessageType.attribute) continue;
    if (m.flags & 2) {
      attributeProblems.push(
        `an attribute at address ${m.at} is shared, which is not supported`,
      );
      continue;
    }
    try {
      attributes.push(await readAttribute(cursor(m), types));
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      attributeProblems.push(`an attribute: ${error.problem}`);
    }
  }
  const info = messageOf(messages, MessageType.attributeInfo);
  if (info) {
    const dense = readDenseInfo(info.data, sizes, file.path, info.at, true);
    if (dense.heap !== UNDEFINED_ADDRESS) {
      const stored = await denseAttributes(file, sizes, dense, types);
      attributes.push(...stored.attributes);
      attributeProblems.push(...stored.problems);
    }
  }
  const object: Hdf5Object = {
    path: link.name,
    address: link.address,
    attributes,
    attributeProblems,
  };
  const layout = messageOf(messages, MessageType.layout);
  const type = messageOf(messages, MessageType.datatype);
  if (layout === undefined) {
    if (type !== undefined) object.committedType = true;
    return object;
  }
  const space = messageOf(messages, MessageType.dataspace);
  if (type === undefined || space === undefined) {
    throw new Hdf5FormatError(
      file.path,
      `the dataset "${link.name}" has no datatype or dataspace`,
    );
  }
  const filters = messageOf(messages, MessageType.filters);
  const fill = messageOf(messages, MessageType.fillValue);
  const oldFill = messageOf(messages, MessageType.fillValueOld);
  object.dataset = {
    type: type.flags & 2
      ? await types.resolve(cursor(type))
      : readDatatype(cursor(type)),
    space: readDataspace(cursor(space)),
    layout: messageOf(messages, MessageType.externalFiles)
      ? { kind: "unsupported", problem: "its data is in external files" }
      : readLayout(cursor(layout)),
    filters: filters ? readFilters(cursor(filters)) : [],
    fill: fill
      ? readFillValue(cursor(fill))
      : oldFill
      ? readOldFillValue(cursor(oldFill))
      : undefined,
  };
  return object;
}

async function childLinks(
  file: FileReader,
  sizes: Sizes,
  messages: Message[],
): Promise<Link[]> {
  const table = messageOf(messages, MessageType.symbolTable);
  if (table) return await symbolTableLinks(file, sizes, table.data);
  const links = messages.filter((m) => m.type === MessageType.link)
    .map((m) => readLink(m.data, sizes, file.path, m.at))
    .filter((link) => link !== undefined);
  const info = messageOf(messages, MessageType.linkInfo);
  if (info) {
    const dense = readDenseInfo(info.data, sizes, file.path, info.at, false);
    if (dense.heap !== UNDEFINED_ADDRESS) {
      links.push(...await denseLinks(file, sizes, dense));
    }
  }
  return links;
}
