/**
 * The superblock: where the file's structures start and how wide its
 * addresses and lengths are (versions 0 to 3).
 *
 * @module
 */

import { Cursor, type Sizes } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import { type FileReader, firstReadBytes } from "./file_reader.ts";

/** The 8 bytes an HDF5 superblock starts with. */
export const HDF5_SIGNATURE = new Uint8Array([
  0x89,
  0x48,
  0x44,
  0x46,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
]);

/** What the rest of the reader needs of the superblock. */
export interface Superblock {
  version: number;
  sizes: Sizes;
  /** Absolute position that file addresses count from. */
  base: number;
  /** Address of the root group's object header. */
  root: number;
}

/** Whether `bytes` holds the HDF5 signature at `at`. */
export function hasSignature(bytes: Uint8Array, at: number): boolean {
  return HDF5_SIGNATURE.every((b, i) => bytes[at + i] === b);
}

/**
 * Finds and reads the superblock: at 0, 512, 1024, 2048, … (a user block
 * may come first). Sets the reader's base address.
 */
export async function readSuperblock(file: FileReader): Promise<Superblock> {
  await file.prefetch(
    [{ offset: 0, length: firstReadBytes(file.size) }],
    "the start",
  );
  const classic = classicNetcdf(await file.upTo(0, 4, "the superblock"));
  if (classic !== undefined) {
    throw new Hdf5FormatError(
      file.path,
      `it is classic NetCDF (${classic}), not HDF5 or NetCDF4: netcdfStore of @x/repo-fs/netcdf reads it`,
    );
  }
  for (let at = 0; at + 8 <= file.size; at = at === 0 ? 512 : at * 2) {
    const head = await file.upTo(at, 128, "the superblock");
    if (!hasSignature(head, 0)) continue;
    const superblock = parse(head, file.path, at);
    file.base = superblock.base;
    return superblock;
  }
  throw new Hdf5FormatError(
    file.path,
    "no HDF5 signature at 0, 512, 1024, … (not an HDF5 or NetCDF4 file)",
  );
}

/** `CDF-1`, `CDF-2` or `CDF-5` for the signature of a classic NetCDF file. */
function classicNetcdf(head: Uint8Array): string | undefined {
  if (head[0] !== 0x43 || head[1] !== 0x44 || head[2] !== 0x46) return;
  return { 1: "CDF-1", 2: "CDF-2", 5: "CDF-5" }[head[3]];
}

function parse(bytes: Uint8Array, path: string, at: number): Superblock {
  const version = bytes[8];
  if (version > 3) {
    throw new Hdf5FormatError(
      path,
      `superblock version ${version} is not known`,
    );
  }
  if (version <= 1) {
    const sizes = { offsets: bytes[13], lengths: bytes[14] };
    checkSizes(sizes, path);
    const c = new Cursor(bytes, sizes, path, at);
    c.skip(24 + (version === 1 ? 4 : 0));
    const base = c.offset();
    c.offset(); // free-space info
    c.offset(); // end of file
    c.offset(); // driver info
    c.offset(); // root link name offset
    const root = c.offset();
    return { version, sizes, base, root };
  }
  const sizes = { offsets: bytes[9], lengths: bytes[10] };
  checkSizes(sizes, path);
  const c = new Cursor(bytes, sizes, path, at);
  c.skip(12);
  const base = c.offset();
  c.offset(); // superblock extension
  c.offset(); // end of file
  const root = c.offset();
  return { version, sizes, base, root };
}

function checkSizes(sizes: Sizes, path: string): void {
  for (const size of [sizes.offsets, sizes.lengths]) {
    if (![2, 4, 8].includes(size)) {
      throw new Hdf5FormatError(
        path,
        `the superblock gives ${size}-byte addresses or lengths`,
      );
    }
  }
}
