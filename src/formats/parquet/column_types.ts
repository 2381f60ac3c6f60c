/**
 * What a column's values become, decided by its schema: text only where the
 * schema says text, bytes where it says nothing.
 *
 * @module
 */

import type {
  DecodedArray,
  FileMetaData,
  ParquetParsers,
  SchemaElement,
} from "hyparquet";
import { DEFAULT_PARSERS } from "hyparquet/src/convert.js";

const TEXT = new Set(["STRING", "UTF8", "ENUM", "JSON"]);
// fatal: bytes that are not UTF-8 are refused, not replaced; ignoreBOM keeps a leading U+FEFF.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The metadata with each column's annotation said the one way hyparquet
 * (read with `utf8: false`) converts right: `STRING`, `ENUM` and `JSON`
 * columns as `UTF8` (text, JSON not parsed), `BSON` as plain bytes, the
 * `DECIMAL`, `DATE`, `LIST` and `MAP` logical types that carry no converted
 * type as the converted types hyparquet acts on, and a `MAP` whose entries
 * have no value as a `LIST` of its keys. Unannotated `BYTE_ARRAY` and
 * `FIXED_LEN_BYTE_ARRAY` stay `Uint8Array`s.
 */
export function withValueTypes(metadata: FileMetaData): FileMetaData {
  return { ...metadata, schema: metadata.schema.map(valueType) };
}

function valueType(
  element: SchemaElement,
  index: number,
  schema: SchemaElement[],
): SchemaElement {
  const logical = element.logical_type;
  if (logical?.type === "MAP" || element.converted_type === "MAP") {
    // A map whose entries hold only a key is the list of its keys (as Arrow reads it).
    const entries = schema[index + 1]?.num_children;
    const type = entries === 1 ? "LIST" : "MAP";
    return { ...element, converted_type: type, logical_type: { type } };
  }
  if (logical?.type === "LIST") return { ...element, converted_type: "LIST" };
  const converted = element.converted_type;
  if (
    TEXT.has(logical?.type ?? "") ||
    (converted !== undefined && TEXT.has(converted))
  ) {
    return { ...element, converted_type: "UTF8", logical_type: undefined };
  }
  if (logical?.type === "BSON" || converted === "BSON") {
    return { ...element, converted_type: undefined, logical_type: undefined };
  }
  if (logical?.type === "DECIMAL" && converted === undefined) {
    const { scale, precision } = logical;
    return { ...element, converted_type: "DECIMAL", scale, precision };
  }
  if (logical?.type === "DATE" && converted === undefined) {
    return { ...element, converted_type: "DATE" };
  }
  return element;
}

/** The earliest nanosecond an INT64 holds: hyparquet's INT96 values below it lost their day. */
const INT64_MIN = -(2n ** 63n);
/** The latest millisecond a `Date` holds, either side of 1970. */
const DATE_LIMIT = 8_640_000_000_000_000n;

/**
 * hyparquet's parsers where its own would give a wrong value: text that is
 * not UTF-8 fails rather than turning into U+FFFD; instants before 1970
 * round down to their millisecond rather than toward zero; an instant a
 * `Date` cannot hold, or an INT96 whose nanoseconds of day are negative
 * (hyparquet's INT96 then loses its day), fails.
 */
export const PARSERS: ParquetParsers = {
  ...DEFAULT_PARSERS,
  stringFromBytes: (bytes) => bytes && utf8.decode(bytes),
  timestampFromMilliseconds: (millis) => instant(BigInt(millis)),
  timestampFromMicroseconds: (micros) => instant(floorDivide(micros, 1_000n)),
  timestampFromNanoseconds: (nanos) => {
    if (nanos < INT64_MIN) {
      throw new RangeError(
        "an INT96 timestamp has negative nanoseconds of day",
      );
    }
    return instant(floorDivide(nanos, 1_000_000n));
  },
};

function instant(millis: bigint): Date {
  if (millis > DATE_LIMIT || millis < -DATE_LIMIT) {
    throw new RangeError(
      `the instant ${millis} ms from 1970 is beyond what a Date holds`,
    );
  }
  return new Date(Number(millis));
}

function floorDivide(value: bigint, by: bigint): bigint {
  const quotient = value / by;
  return value % by < 0n ? quotient - 1n : quotient;
}

/**
 * The element as hyparquet should decode it: a `DECIMAL` column's raw
 * unscaled integers are left for {@linkcode decimals}, as hyparquet's own
 * division rounds twice past 15 digits.
 */
export function rawElement(element: SchemaElement): SchemaElement {
  return element.converted_type === "DECIMAL"
    ? { ...element, converted_type: undefined, logical_type: undefined }
    : element;
}

/**
 * Raw `DECIMAL` values (numbers, bigints or big-endian two's complement
 * bytes, nested in lists as decoded) as the double nearest to each
 * decimal, read from its digits; other columns' values as they are.
 */
export function decimals(
  element: SchemaElement,
  values: DecodedArray,
): DecodedArray {
  if (element.converted_type !== "DECIMAL") return values;
  const exponent = `e-${element.scale ?? 0}`;
  const scaled = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(scaled)
      : value === null || value === undefined
      ? value
      : Number(
        `${value instanceof Uint8Array ? unscaled(value) : value}${exponent}`,
      );
  return Array.from(values as ArrayLike<unknown>, scaled);
}

function unscaled(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes.length ? BigInt.asIntN(bytes.length * 8, value) : 0n;
}
