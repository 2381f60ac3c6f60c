/**
 * What each file of the real-file corpus (fixtures/real/) must give beyond
 * "the values its writing project's tools read": the files that may be
 * refused and the reason their refusal must name, values checked by hand
 * where the reference tool is wrong, and the files the readers get wrong
 * today (`KNOWN`, each with its reason; the lead removes an entry once the
 * fix is merged, and the test says when an entry has gone stale).
 *
 * @module
 */

import type { Canonical } from "./real_corpus_values.ts";

/** A file that is not simply "every value right". */
export interface Expectation {
  /** Parts (or the file) may be refused, each with a message matching this. */
  refused?: RegExp;
  /** The reference tool cannot read the file: any read is accepted, unchecked. */
  unverified?: string;
  /** Columns whose values are checked against these, not the reference tool's. */
  documented?: Record<string, Canonical[]>;
}

const NOT_HDF5 = /no HDF5 signature|not an HDF5|classic NetCDF/;
const ENCRYPTED = { refused: /encrypted/ };
const NAMELESS = {
  refused:
    /left out: (A dataset path may not contain a NUL|the file has no name)/,
};
const method = (name: string) => ({
  refused: new RegExp(`compression method \\d+ \\(${name}\\)`),
});

/** Files that may be refused (the reason named) or are checked otherwise. */
export const EXPECTED: Record<string, Expectation> = {
  "h5py/compound-dtype-complex.h5": { refused: /compound/ },
  // netCDF-C refuses it too ("Unknown file format").
  "netcdf-c/bad_cdf5_begin.nc": { refused: /no HDF5 signature|CDF-5|NetCDF/ },
  "netcdf-c/ref_contiguous.hdf4": { refused: NOT_HDF5 },
  "netcdf-c/ref_hdf5_compat3.nc": { refused: /compound/ },
  "netcdf-c/ref_szip.h5": { refused: /szip/ },
  "netcdf-c/ref_tst_compounds.nc": { refused: /committed|compound/ },
  "netcdf-c/ref_tst_compounds2.nc": { refused: /committed|compound/ },
  "netcdf-c/ref_tst_compounds3.nc": { refused: /committed|compound/ },
  "netcdf-c/ref_tst_h_compounds.h5": { refused: /committed|compound/ },
  // One attribute is a huge fractal heap object; h5py reads the file.
  "pyfive/opaque_datetime.hdf5": {
    refused: /opaque|variable-length strings/,
  },
  "pyfive/opaque_fixed.hdf5": { refused: /opaque/ },
  "pyfive/references.hdf5": { refused: /reference/ },

  "sharpcompress/Zip.bzip2.zip": method("bzip2"),
  "sharpcompress/Zip.deflate.WinzipAES.zip": ENCRYPTED,
  "sharpcompress/Zip.deflate.pkware.zip": ENCRYPTED,
  "sharpcompress/Zip.implode.zip": method("implode"),
  "sharpcompress/Zip.lzma.WinzipAES.zip": ENCRYPTED,
  "sharpcompress/Zip.lzma.empty.zip": method("LZMA"),
  "sharpcompress/Zip.lzma.zip": method("LZMA"),
  "sharpcompress/Zip.none.encrypted.zip": ENCRYPTED,
  "sharpcompress/Zip.ppmd.zip": method("PPMd"),
  "sharpcompress/Zip.reduce1.zip": method("shrink|reduce"),
  "sharpcompress/Zip.shrink.zip": method("shrink"),
  "sharpcompress/zipcrypto.zip": ENCRYPTED,
  "yauzl/End of central directory record signature not found Either not a zip file or file is truncated.zip":
    { refused: /no end of central directory record/ },
  "yauzl/End of central directory record signature not found Either not a zip file or file is truncated_1.zip":
    { refused: /no end of central directory record/ },
  "yauzl/absolute path C xt.zip": { refused: /absolute/ },
  "yauzl/absolute path atxt.zip": { refused: /absolute/ },
  "yauzl/bogus-compression-method.zip": {
    refused: /compression method 7 is not supported/,
  },
  "yauzl/compressed uncompressed size mismatch for stored file 2147483647 5.zip":
    { refused: /lies past the central directory/ },
  "yauzl/file data overflows file bounds 63 2147483647 308.zip": {
    refused: /lies past the central directory/,
  },
  "yauzl/invalid central directory file header signature 0x1014b50.zip": {
    refused: /no central directory entry/,
  },
  "yauzl/invalid code lengths set.zip": { refused: /deflate data is damaged/ },
  "yauzl/invalid local file header signature 0x3034b50.zip": {
    refused: /no local header/,
  },
  "yauzl/invalid relative path xt.zip": { refused: /"\.\." segment/ },
  "yauzl/invalid zip64 end of central directory record signature.zip": {
    refused: /no zip64 end of central directory record/,
  },
  "yauzl/multi-disk zip files are not supported found disk number 1.zip": {
    refused: /spans several disks/,
  },
  "yauzl/not enough bytes in the stream expected 2048576 got only 1000000.zip":
    {
      refused:
        /data ends after 1000000 bytes, the directory says 2048576|local header gives its sizes/,
    },
  "yauzl/strong encryption is not supported.zip": ENCRYPTED,
  "yauzl/too many bytes in the stream expected 82496 got at least 98304.zip": {
    refused:
      /holds more than the 82496 bytes the directory says|local header gives its sizes/,
  },
  // The local header names a.txt, the central directory a\txt.
  "yauzl/invalid characters in fileName a txt.zip": {
    refused: /local header names "a\.txt"/,
  },
  "yauzl/sloppy-filenames.zip": { refused: /local header names "a\.txt"/ },
  "yauzl/too many length or distance symbols.zip": {
    refused: /deflate data is damaged/,
  },
  "yauzl/traditional-encryption-and-compression.zip": ENCRYPTED,
  "yauzl/traditional-encryption-and-compression_deprecated.zip": ENCRYPTED,
  "yauzl/traditional-encryption.zip": ENCRYPTED,
  "yauzl/traditional-encryption_deprecated.zip": ENCRYPTED,
  "yauzl/unexpected EOF.zip": { refused: /lies past the central directory/ },
  // Its raw name holds NULs; the Unicode Path field names it 七个房间.txt.
  "yauzl/unsupported compression method 1.zip": method("shrink"),
  "yauzl/wrong-entry-sizes.zip": {
    refused: /data ends after \d+ bytes|holds more than the \d+ bytes/,
  },
  "yauzl/zip64 extended information extra field does not include compressed size.zip":
    { refused: /zip64 extra field is too short/ },
  "yauzl/zip64 extended information extra field does not include relative header offset.zip":
    { refused: /zip64 extra field is too short/ },
  "yauzl/zip64 extended information extra field does not include uncompressed size.zip":
    { refused: /zip64 extra field is too short/ },
  "zip2/aes_archive.zip": ENCRYPTED,
  "zip2/deflate64_issue_25.zip": {
    refused: /no end of central directory record/,
  },
  "zip2/ignore_encryption_flag.zip": ENCRYPTED,
  "zip2/implode.zip": method("implode"),
  // zipfile refuses it too ("Bad offset for central directory"): its end record
  // counts 0 entries on its disk but 12 in all, and its central directory
  // (1,258,291,200 bytes at 3,065,427,638) lies past the 124-byte file.
  "zip2/invalid_cde_number_of_files_allocation_greater_offset.zip": {
    refused: /entries on its one disk but 12 in all|lies past its end record/,
  },
  // zipfile refuses these two as well (7-Zip reads the first).
  "zip2/invalid_offset.zip": { refused: /lies past its end record/ },
  "zip2/invalid_offset2.zip": { refused: /spans several disks/ },
  "zip2/ppmd.zip": method("PPMd"),
  "zip2/raw_deflate64_index_out_of_bounds.zip": {
    refused: /lies past the central directory/,
  },
  "zip2/reduce.zip": method("reduce"),
  "zip2/shrink.zip": method("shrink"),
  "zip2/xz.zip": method("XZ"),
  // Its zip64 locator points at 112, where no record is (it is at 126);
  // zipfile reads the record just before the locator instead.
  "zip2/zip64_demo.zip": {
    refused: /no zip64 end of central directory record/,
  },
  // Names holding NULs (zipfile cuts them there) or none: each such member
  // is left out, with a warning naming it.
  "zip2/zip64_magic_in_filename_1.zip": NAMELESS,
  "zip2/zip64_magic_in_filename_2.zip": NAMELESS,
  "zip2/zip64_magic_in_filename_3.zip": { refused: /spans several disks/ },
  "zip2/zip64_magic_in_filename_4.zip": NAMELESS,
  "zip2/zip64_magic_in_filename_5.zip": NAMELESS,

  "parquet-testing/ARROW-RS-GH-6229-DICTHEADER.parquet": {
    refused: /lie outside its 533 bytes|lies outside the data/,
  },
  // The refusals the Parquet fix (branch parquet, 5a38e39) gives these.
  "parquet-testing/ARROW-GH-41317.parquet": {
    refused: /its column chunk is for "timestampWus_no_tz"/,
  },
  "parquet-testing/ARROW-GH-41321.parquet": {
    refused: /values do not decode/,
  },
  "parquet-testing/ARROW-GH-45185.parquet": {
    refused: /values do not decode/,
  },
  "parquet-testing/ARROW-GH-47662.parquet": {
    refused: /values do not decode/,
  },
  "parquet-testing/ARROW-RS-GH-6229-LEVELS.parquet": {
    refused: /declares \d+ values, more than the \d+ its column chunk has left/,
  },
  "parquet-testing/nation.dict-malformed.parquet": {
    refused: /declares \d+ bytes where its column chunk has \d+ left/,
  },
  "parquet-testing/large_string_map.brotli.parquet": {
    refused: /declares \d+ bytes uncompressed, more than/,
  },
  // The footer says 0 rows; Arrow reads 0, the Parquet fix refuses it.
  "parquet-testing/repeated_no_annotation.parquet": {
    refused: /its row groups hold \d+ rows where its footer says 0/,
  },
  "parquet-testing/PARQUET-1481.parquet": { refused: /footer|schema|type/ },
  // A page whose bytes fail the CRC-32 its header carries (Arrow does not check).
  "parquet-testing/rle-dict-uncompressed-corrupt-checksum.parquet": {
    refused: /fails its CRC-32/,
  },
  "parquet-testing/datapage_v1-corrupt-checksum.parquet": {
    refused: /fails its CRC-32/,
  },
  "parquet-testing/dict-page-offset-zero.parquet": {
    unverified: "parquet-wasm: Could not parse metadata: protocol error",
  },
  "parquet-testing/floating_orders_nan_count.parquet": {
    unverified: "parquet-wasm: Could not parse metadata: bad data",
  },
  "parquet-testing/geospatial-with-nan.parquet": {
    unverified: "parquet-wasm: Cannot annotate Geometry from BYTE_ARRAY",
  },
  "parquet-testing/geospatial.parquet": {
    unverified: "parquet-wasm: Cannot annotate Geometry from BYTE_ARRAY",
  },
  "parquet-testing/unknown-logical-type.parquet": {
    unverified: "parquet-wasm: Could not parse metadata: bad data",
  },
  // Arrow reads INT96 as 64-bit nanoseconds and wraps rows 3 and 6; these are
  // the microseconds parquet-testing's int96_from_spark.md lists, to the
  // millisecond a JavaScript Date holds.
  "parquet-testing/int96_from_spark.parquet": {
    refused: /INT96/,
    documented: {
      a: [
        "n:1704141296123",
        "n:1704070800000",
        "n:253402225200000",
        "n:1735599600000",
        null,
        "n:9089380393200000",
      ],
    },
  },
};

/** A file the readers get wrong today: what goes wrong, and who fixes it. */
export interface KnownBad {
  /**
   * Matches every problem line of the file as the test writes them:
   * `wrong PART: what differs`, `crash PART: the error` (a rejection left
   * unhandled is the part `(unhandled)`).
   */
  detail: RegExp;
  /** Why, and which fix is expected to remove the entry. */
  why: string;
}

/** The files read wrong today, with why; the lead removes each once fixed. */
export const KNOWN: Record<string, KnownBad> = {};
