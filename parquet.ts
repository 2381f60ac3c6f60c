/**
 * Parquet files of a dataset read by range: hyparquet's `AsyncBuffer` over
 * a file, and the asked columns and rows, as rows or as one array per
 * column, fetched by column chunk and decoded by row group (in the workers
 * with a `RepoFsPool`).
 *
 * @module
 */

export type { ByteSource } from "./src/formats/source.ts";
export type { Checksum, FileInfo } from "./src/base/types.ts";
export {
  type ParquetBuffer,
  parquetFile,
} from "./src/formats/parquet/parquet_file.ts";
export {
  readParquet,
  type ReadParquetOptions,
} from "./src/formats/parquet/read_parquet.ts";
export { readParquetColumns } from "./src/formats/parquet/read_parquet_columns.ts";
export type {
  ParquetColumn,
  ParquetColumns,
} from "./src/formats/parquet/parquet_parts.ts";
export { ParquetFormatError } from "./src/formats/parquet/parquet_format_error.ts";
export { FormatError } from "./src/base/format_error.ts";
