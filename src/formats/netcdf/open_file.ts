/**
 * Opens a NetCDF file of either kind: its first bytes say whether it is
 * classic (`CDF`) or NetCDF4/HDF5, and are kept, so that the header, or the
 * HDF5 reader's first pages, cost no second request.
 *
 * @module
 */

import { hasSignature } from "../hdf5/superblock.ts";
import { firstReadBytes } from "../hdf5/file_reader.ts";
import type { ByteSource } from "../source.ts";
import { NetcdfFormatError } from "./errors.ts";
import type { Header } from "./header.ts";
import { readHeader } from "./read_header.ts";

/** A file opened: a classic file's header, or a source for the HDF5 reader. */
export type OpenedFile =
  | { kind: "classic"; header: Header; size: number }
  | { kind: "hdf5"; source: ByteSource };

/** Reads the first bytes of `path` and, for a classic file, its header. */
export async function openFile(
  source: ByteSource,
  path: string,
  signal?: AbortSignal,
): Promise<OpenedFile> {
  const info = await source.info(path);
  if (info.type !== "file" || info.size === null) {
    throw new NetcdfFormatError(
      path,
      info.type === "file" ? "its size is not known" : "it is a directory",
    );
  }
  const size = info.size;
  const first = await source.catFile(path, {
    start: 0,
    end: firstReadBytes(size),
    signal,
  });
  if (isClassic(first)) {
    const header = await readHeader(source, path, size, first, signal);
    return { kind: "classic", header, size };
  }
  const searched = [0, 512, 1024, 2048, 4096, 8192].filter((at) =>
    at + 8 <= first.length
  );
  if (
    first.length === size && !searched.some((at) => hasSignature(first, at))
  ) {
    throw new NetcdfFormatError(
      path,
      "no NetCDF signature: neither classic (CDF) nor NetCDF4/HDF5 (\\x89HDF)",
    );
  }
  return { kind: "hdf5", source: withFirstBytes(source, path, first) };
}

/** Whether `bytes` start as a classic NetCDF file: `CDF` and a version byte. */
export function isClassic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x43 && bytes[1] === 0x44 &&
    bytes[2] === 0x46;
}

/** `source`, with reads of `path` inside its `first` bytes answered from them. */
function withFirstBytes(
  source: ByteSource,
  path: string,
  first: Uint8Array,
): ByteSource {
  return {
    info: (p) => source.info(p),
    catFile: (p, options = {}) => {
      const { start = 0, end } = options;
      const inside = p === path && start >= 0 && end !== undefined &&
        end >= start && end <= first.length;
      return inside
        ? Promise.resolve(first.slice(start, end))
        : source.catFile(p, options);
    },
  };
}
