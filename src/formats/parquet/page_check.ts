/**
 * The page headers of a column chunk checked against what the chunk can
 * hold, before hyparquet allocates anything they declare.
 *
 * @module
 */

import type { ColumnMetaData, PageHeader } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { crc32 } from "../zip/crc32.ts";

/** The most a compressed page may grow by: deflate's own limit (1032:1). */
const MAX_RATIO = 1032;
/** What any page may inflate to whatever its compressed size, as pages of 1 MiB are the writers' default. */
const ALWAYS_ALLOWED = 64 << 20;
/** The fewest bytes a PLAIN value of each type takes (a BYTE_ARRAY its 4-byte length). */
const PLAIN_WIDTH: Record<string, number> = {
  BOOLEAN: 1 / 8,
  INT32: 4,
  FLOAT: 4,
  INT64: 8,
  DOUBLE: 8,
  INT96: 12,
  BYTE_ARRAY: 4,
};

/**
 * Walks the page headers of column chunk `bytes` (described by `meta`, of
 * fixed-length `typeLength` where it has one) and returns what is wrong
 * with the first impossible one: a page larger than what is left of the
 * chunk, one that inflates past the chunk's declared size or past what its
 * codec can reach, a dictionary of more values than its bytes can hold,
 * more values than the chunk has, bytes that fail the CRC-32 their header
 * carries. `undefined` when all are possible and whole.
 */
export function impossiblePage(
  bytes: Uint8Array,
  meta: ColumnMetaData,
  typeLength?: number,
): string | undefined {
  const reader = {
    view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    offset: 0,
  };
  const chunkValues = Number(meta.num_values);
  const chunkInflated = Number(meta.total_uncompressed_size);
  let values = 0;
  for (let page = 0; values < chunkValues; page++) {
    if (reader.offset >= bytes.byteLength) {
      return `its column chunk ends after ${values} of its ${chunkValues} values`;
    }
    let header: PageHeader;
    try {
      header = parquetHeader(reader);
    } catch (error) {
      return `page header ${page} does not parse (${error})`;
    }
    const left = bytes.byteLength - reader.offset;
    const stored = header.compressed_page_size;
    const inflated = header.uncompressed_page_size;
    const what = `page ${page} (${header.type})`;
    if (!(stored >= 0 && stored <= left)) {
      return `${what} declares ${stored} bytes where its column chunk has ${left} left`;
    }
    const most = meta.codec === "UNCOMPRESSED"
      ? chunkInflated
      : Math.min(chunkInflated, Math.max(stored * MAX_RATIO, ALWAYS_ALLOWED));
    if (!(inflated >= 0 && inflated <= most)) {
      return `${what} declares ${inflated} bytes uncompressed, more than the ${most} its column chunk (${chunkInflated} bytes uncompressed, ${meta.codec}) allows`;
    }
    if (header.crc !== undefined) {
      const crc = crc32(bytes.subarray(reader.offset, reader.offset + stored));
      if (crc !== header.crc >>> 0) {
        return `${what} fails its CRC-32 (its header says ${
          (header.crc >>> 0).toString(16)
        }, its ${stored} bytes give ${crc.toString(16)})`;
      }
    }
    const dictionary = header.dictionary_page_header;
    if (dictionary) {
      const width = PLAIN_WIDTH[meta.type] ?? typeLength ?? 1;
      if (
        !(dictionary.num_values >= 0 &&
          dictionary.num_values * width <= inflated)
      ) {
        return `${what} declares ${dictionary.num_values} values in ${inflated} bytes`;
      }
    }
    const count = header.data_page_header?.num_values ??
      header.data_page_header_v2?.num_values ?? 0;
    if (!(count >= 0 && values + count <= chunkValues)) {
      return `${what} declares ${count} values, more than the ${
        chunkValues - values
      } its column chunk has left`;
    }
    values += count;
    reader.offset += stored;
  }
  return undefined;
}
