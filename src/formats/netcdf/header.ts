/**
 * The header of a classic NetCDF file (CDF-1, CDF-2 "64-bit offset",
 * CDF-5 "64-bit data"): dimensions, attributes and variables, with where
 * each variable's data lies, checked against the file before anything is
 * allocated or read for it.
 *
 * @module
 */

import type { JsonValue } from "../hdf5/values.ts";
import { HeaderCursor } from "./cursor.ts";
import { NetcdfFormatError } from "./errors.ts";
import { jsonValues, type NcType, ncType, text } from "./types.ts";

/** A dimension. */
export interface Dimension {
  name: string;
  /** Its length; the record count for the record dimension. */
  size: number;
  /** Whether it is the record (unlimited) dimension. */
  unlimited: boolean;
}

/** A variable and where its data lies. */
export interface Variable {
  name: string;
  type: NcType;
  /** Its dimensions' names, outermost first. */
  dimensions: string[];
  /** Its shape (the record count first for a record variable). */
  shape: number[];
  attributes: Record<string, JsonValue>;
  /** Whether its first dimension is the record dimension. */
  record: boolean;
  /** Where its data (its first record's slab) starts in the file. */
  begin: number;
  /** Bytes of its data, or of one record's slab for a record variable. */
  slab: number;
}

/** What the header says. */
export interface Header {
  /** 1 (classic), 2 (64-bit offset) or 5 (64-bit data). */
  version: 1 | 2 | 5;
  /** Records in the file. */
  records: number;
  /** Bytes from one record to the next. */
  recordSize: number;
  /** Where the first record starts (its first variable's data); 0 with no record variable. */
  recordsBegin: number;
  dimensions: Dimension[];
  attributes: Record<string, JsonValue>;
  variables: Variable[];
  /** Bytes of the header. */
  length: number;
}

const DIMENSION_TAG = 10;
const VARIABLE_TAG = 11;
const ATTRIBUTE_TAG = 12;
/**
 * Most dimensions, attributes of one owner, or variables: 12 times
 * netCDF-C's historic limits (8,192), which it no longer enforces. Each
 * costs memory and time to present (400,000 variables: 320 MB, 5 s).
 */
const MAX_LIST_ITEMS = 100_000;
/** netCDF-C's most dimensions of one variable (`NC_MAX_VAR_DIMS`). */
const MAX_RANK = 1024;

/** The name of a format version, as errors and `info` say it. */
export function formatName(version: number): string {
  return version === 1
    ? "CDF-1 (classic)"
    : version === 2
    ? "CDF-2 (64-bit offset)"
    : "CDF-5 (64-bit data)";
}

/**
 * Parses the header in `bytes`, the first bytes of the file `path` of
 * `fileSize` bytes; throws {@linkcode ShortHeader} when it goes on past them.
 */
export function parseHeader(
  bytes: Uint8Array,
  path: string,
  fileSize: number,
): Header {
  const version = bytes[3];
  if (version !== 1 && version !== 2 && version !== 5) {
    throw new NetcdfFormatError(
      path,
      `"CDF" then version byte ${version}: not CDF-1, CDF-2 or CDF-5`,
    );
  }
  const c = new HeaderCursor(bytes, path, fileSize, version === 5, version > 1);
  c.pos = 4;
  const streaming = version === 5 ? 2 ** 64 - 1 : 2 ** 32 - 1;
  const recordsAt = c.pos;
  const declared = version === 5 ? readStreamingCount(c) : c.u32();
  const n = c.countBytes;
  const dimensions: Dimension[] = [];
  const dimensionCount = list(c, DIMENSION_TAG, "dimensions", 2 * n + 4);
  for (let i = 0; i < dimensionCount; i++) {
    const name = readName(c, "dimension");
    const size = c.count(`dimension "${name}" length`);
    dimensions.push({ name, size, unlimited: size === 0 });
  }
  const unlimited = dimensions.filter((d) => d.unlimited);
  if (unlimited.length > 1) {
    throw new NetcdfFormatError(
      path,
      `${unlimited.length} record (unlimited) dimensions, not one: damaged`,
    );
  }
  const attributes = readAttributes(c, "the file");
  const variables: RawVariable[] = [];
  const varCount = list(c, VARIABLE_TAG, "variables", 4 * n + 16);
  for (let i = 0; i < varCount; i++) {
    variables.push(readVariable(c, dimensions));
  }
  const header = shaped(path, version, dimensions, attributes, variables);
  header.length = c.pos;
  header.records = declared === streaming
    ? streamedRecords(header, fileSize)
    : declared;
  if (!Number.isSafeInteger(header.records)) {
    throw new NetcdfFormatError(
      path,
      `the record count at byte ${recordsAt} is damaged`,
    );
  }
  for (const d of unlimited) d.size = header.records;
  for (const v of header.variables) if (v.record) v.shape[0] = header.records;
  checkPlacement(path, header, fileSize);
  return header;
}

/** CDF-5's 8-byte record count, all ones (streaming) kept as 2^64 - 1. */
function readStreamingCount(c: HeaderCursor): number {
  const at = c.pos;
  const high = c.u32();
  const low = c.u32();
  if (high === 0xffffffff && low === 0xffffffff) return 2 ** 64 - 1;
  c.pos = at;
  return c.count("the record count");
}

/** A list's tag and count: 0 and 0 when absent. */
function list(
  c: HeaderCursor,
  tag: number,
  what: string,
  leastBytes: number,
): number {
  const at = c.pos;
  const found = c.u32();
  const count = c.items(what, leastBytes);
  if (count > MAX_LIST_ITEMS) {
    throw new NetcdfFormatError(
      c.path,
      `${count} ${what} (count at byte ${
        at + 4
      }), more than the ${MAX_LIST_ITEMS} read here: damaged?`,
    );
  }
  if (found === tag || (found === 0 && count === 0)) return count;
  throw new NetcdfFormatError(
    c.path,
    `the list of ${what} at byte ${at} has tag ${found}, not ${tag}: damaged`,
  );
}

function readName(c: HeaderCursor, what: string): string {
  const at = c.pos;
  const length = c.count(`a ${what} name's length`);
  if (length === 0 || length > 4096) {
    throw new NetcdfFormatError(
      c.path,
      `a ${what} name of ${length} bytes at byte ${at}: damaged`,
    );
  }
  // Some old writers counted trailing NULs in the length; netCDF-C drops them.
  const name = text(c.padded(length)).replace(/\0+$/, "");
  if (name === "" || /[/\0]/.test(name) || name.startsWith(".")) {
    throw new NetcdfFormatError(
      c.path,
      `the ${what} name ${
        JSON.stringify(name)
      } at byte ${at} is not a NetCDF name`,
    );
  }
  return name;
}

function readAttributes(
  c: HeaderCursor,
  owner: string,
): Record<string, JsonValue> {
  const attributes: Record<string, JsonValue> = {};
  const count = list(
    c,
    ATTRIBUTE_TAG,
    `attributes of ${owner}`,
    2 * c.countBytes + 8,
  );
  for (let i = 0; i < count; i++) {
    const name = readName(c, "attribute");
    const type = readType(c, `attribute "${name}" of ${owner}`);
    const at = c.pos;
    const values = c.count(`the value count of attribute "${name}"`);
    if (values * type.size > c.limit - c.pos) {
      throw new NetcdfFormatError(
        c.path,
        `attribute "${name}" of ${owner} claims ${values} values (count at byte ${at}): damaged`,
      );
    }
    attributes[name] = jsonValues(type, c.padded(values * type.size), values);
  }
  return attributes;
}

function readType(c: HeaderCursor, what: string): NcType {
  const at = c.pos;
  const code = c.u32();
  const type = ncType(code);
  if (type === undefined) {
    throw new NetcdfFormatError(
      c.path,
      `${what} has type code ${code} at byte ${at}, no NetCDF type`,
    );
  }
  return type;
}

/** A variable as the header gives it, before its shape is worked out. */
interface RawVariable {
  name: string;
  dimensionIds: number[];
  attributes: Record<string, JsonValue>;
  type: NcType;
  begin: number;
}

function readVariable(c: HeaderCursor, dimensions: Dimension[]): RawVariable {
  const name = readName(c, "variable");
  const at = c.pos;
  const rank = c.items(`dimensions of variable "${name}"`, c.countBytes);
  if (rank > MAX_RANK) {
    throw new NetcdfFormatError(
      c.path,
      `${rank} dimensions (count at byte ${at}), more than NetCDF's ${MAX_RANK}`,
      { variable: name },
    );
  }
  const dimensionIds: number[] = [];
  for (let i = 0; i < rank; i++) {
    const id = c.count("a dimension id");
    if (id >= dimensions.length) {
      throw new NetcdfFormatError(
        c.path,
        `dimension id ${id}, but the file has ${dimensions.length} dimensions`,
        { variable: name },
      );
    }
    dimensionIds.push(id);
  }
  const attributes = readAttributes(c, `variable "${name}"`);
  const type = readType(c, `variable "${name}"`);
  c.count("a variable's size"); // vsize: recomputed, as netCDF-C does
  const begin = c.offset(`the data offset of variable "${name}"`);
  return { name, dimensionIds, attributes, type, begin };
}

/** The variables with their shapes and slabs, and the record size. */
function shaped(
  path: string,
  version: 1 | 2 | 5,
  dimensions: Dimension[],
  attributes: Record<string, JsonValue>,
  raw: RawVariable[],
): Header {
  const seen = new Set<string>();
  const variables = raw.map((v): Variable => {
    if (seen.has(v.name)) {
      throw new NetcdfFormatError(path, "defined twice", { variable: v.name });
    }
    seen.add(v.name);
    const dims = v.dimensionIds.map((id) => dimensions[id]);
    const later = dims.findIndex((d, i) => i > 0 && d.unlimited);
    if (later > 0) {
      throw new NetcdfFormatError(
        path,
        `the record dimension is its dimension ${later}, not its first`,
        { variable: v.name },
      );
    }
    const record = dims.length > 0 && dims[0].unlimited;
    let elements = 1;
    for (const d of record ? dims.slice(1) : dims) elements *= d.size;
    const slab = elements * v.type.size;
    if (!Number.isSafeInteger(slab)) {
      throw new NetcdfFormatError(
        path,
        `its shape [${dims.map((d) => d.size)}] is too large: damaged`,
        { variable: v.name },
      );
    }
    return {
      name: v.name,
      type: v.type,
      dimensions: dims.map((d) => d.name),
      shape: dims.map((d) => d.size),
      attributes: v.attributes,
      record,
      begin: v.begin,
      slab,
    };
  });
  const records = variables.filter((v) => v.record);
  // One record variable: its records follow each other unpadded (the CDF spec's special case).
  const recordSize = records.length === 1
    ? records[0].slab
    : records.reduce((sum, v) => sum + padded(v.slab), 0);
  return {
    version,
    records: 0,
    recordSize,
    // Record variables lie in the order they are defined (checkPlacement).
    recordsBegin: records[0]?.begin ?? 0,
    dimensions,
    attributes,
    variables,
    length: 0,
  };
}

function padded(bytes: number): number {
  return Math.ceil(bytes / 4) * 4;
}

/** The records a streaming file holds: as many whole ones as fit after the first. */
function streamedRecords(header: Header, fileSize: number): number {
  if (header.recordSize === 0) return 0;
  return Math.max(
    0,
    Math.floor((fileSize - header.recordsBegin) / header.recordSize),
  );
}

/**
 * As netCDF-C checks: the data follows the header, each variable after the
 * one defined before it, the records after the fixed variables; and all of
 * it inside the file.
 */
function checkPlacement(path: string, header: Header, fileSize: number) {
  let end = header.length;
  for (const pass of [false, true]) {
    for (const v of header.variables) {
      if (v.record !== pass) continue;
      if (v.begin < end) {
        throw new NetcdfFormatError(
          path,
          `its data starts at byte ${v.begin}, inside the ${
            end === header.length ? "header" : "data of the variable before it"
          } (which ends at ${end}): damaged`,
          { variable: v.name },
        );
      }
      // With no record yet, the records' place may start past the file's end.
      const last = !v.record
        ? v.begin + v.slab
        : header.records === 0
        ? 0
        : v.begin + (header.records - 1) * header.recordSize + v.slab;
      if (!Number.isSafeInteger(last) || last > fileSize) {
        throw new NetcdfFormatError(
          path,
          `its data (to byte ${last}) runs past the end of the file (${fileSize} bytes): truncated, or a damaged header`,
          { variable: v.name },
        );
      }
      end = v.begin + padded(v.slab);
    }
  }
}
