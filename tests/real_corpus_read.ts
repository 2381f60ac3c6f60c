/**
 * Reads one file of the real-file corpus whole through the public entries
 * and says how it ended, part by part, against what the writing project's
 * tools read (fixtures/real/expected*.json): each zip member, HDF5/NetCDF
 * variable or Parquet column is right, wrong (with what differs), refused
 * (with the error), or crashed (an error that is not a `FormatError`).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { FormatError, type RepoFs } from "../mod.ts";
import { zipTree } from "../zip.ts";
import { hdf5Store } from "../hdf5.ts";
import { getArray } from "../zarr.ts";
import { HIDDEN_ATTRIBUTES } from "../src/formats/hdf5/netcdf.ts";
import { readParquet } from "../parquet.ts";
import {
  type Canonical,
  canonical,
  columnDigest,
} from "./real_corpus_values.ts";

/** How one part (or the whole file) ended. */
export type PartEnd =
  | { part: string; end: "right" }
  | { part: string; end: "wrong"; detail: string }
  | { part: string; end: "unchecked"; detail: string }
  | { part: string; end: "refused"; message: string }
  | { part: string; end: "crash"; message: string };

/** What the writing project's tools read from one file. */
// deno-lint-ignore no-explicit-any
export type Expected = Record<string, any>;

/** The classic NetCDF reader, once the `./netcdf` entry exists. */
export interface NetcdfEntry {
  netcdfStore(source: RepoFs, path: string): MetadataStore;
}

/** What the test asks of a store: its metadata documents by key. */
interface MetadataStore {
  get(key: `/${string}`): Promise<Uint8Array | undefined>;
}

/** The `./netcdf` entry, or `undefined` while there is none. */
export async function netcdfEntry(): Promise<NetcdfEntry | undefined> {
  const url = new URL("../netcdf.ts", import.meta.url);
  try {
    await Deno.stat(url);
  } catch {
    return undefined;
  }
  return await import(url.href) as NetcdfEntry;
}

/** How an error ends a part: refused by name, or a crash. */
function failed(part: string, error: unknown): PartEnd {
  const message = error instanceof Error
    ? `${error.name}: ${error.message}`
    : String(error);
  return error instanceof FormatError
    ? { part, end: "refused", message }
    : { part, end: "crash", message };
}

function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function md5(bytes: Uint8Array): string {
  return createHash("md5").update(bytes).digest("hex");
}

/** A zip archive: every member the tree lists, and the listing itself. */
export async function readZip(
  source: RepoFs,
  path: string,
  expected: Expected,
): Promise<PartEnd[]> {
  const tree = zipTree(source, path);
  let listed: string[];
  try {
    listed = await tree.find("");
  } catch (error) {
    return [failed("(archive)", error)];
  }
  // Where zipfile refuses the whole archive, 7-Zip's reading (if any) is the reference.
  const reference: Expected[] = expected.members ?? expected.members_7z ?? [];
  const members = new Map<string, Expected>();
  for (const member of reference) {
    if (member.directory) continue;
    const key = memberKey(member.unicode_path ?? member.name);
    if (!members.has(key)) members.set(key, member);
  }
  const ends: PartEnd[] = [];
  const extra = listed.filter((name) => !members.has(name));
  const missing = [...members.keys()].filter((name) => !listed.includes(name));
  ends.push(
    extra.length + missing.length === 0
      ? { part: "(listing)", end: "right" }
      : {
        part: "(listing)",
        end: "wrong",
        detail: `listed ${JSON.stringify(extra)}, which ${
          reference.length
            ? "are not members"
            : `zipfile refuses (${expected.refused})`
        }; left out ${JSON.stringify(missing)}`,
      },
  );
  for (const name of listed) {
    const member = members.get(name);
    let bytes: Uint8Array;
    try {
      bytes = await tree.catFile(name);
    } catch (error) {
      ends.push(failed(name, error));
      continue;
    }
    if (member === undefined) continue; // a wrong name: the listing says so
    const want = member.md5 ?? member.md5_7z;
    if (want === undefined) {
      ends.push({
        part: name,
        end: "wrong",
        detail:
          `read ${bytes.byteLength} bytes where zipfile refuses: ${member.refused}`,
      });
    } else if (md5(bytes) !== want) {
      ends.push({
        part: name,
        end: "wrong",
        detail: `${bytes.byteLength} bytes, MD5 ${
          md5(bytes)
        }; expected ${member.size} bytes, MD5 ${want}`,
      });
    } else ends.push({ part: name, end: "right" });
  }
  return ends;
}

/** The listing key of a member name, as the tree names members. */
function memberKey(name: string): string {
  return name.split("/").filter((s) => s !== "").join("/");
}

/** Bytes of a decoded array, or the JSON of its strings. */
function valueDigest(data: unknown): { sha256?: string; strings?: string } {
  if (ArrayBuffer.isView(data)) {
    const view = data as ArrayBufferView;
    return {
      sha256: sha256(
        new Uint8Array(view.buffer, view.byteOffset, view.byteLength),
      ),
    };
  }
  if (Array.isArray(data)) return { strings: sha256(JSON.stringify(data)) };
  const inner = (data as { _data?: unknown })?._data;
  if (ArrayBuffer.isView(inner)) return valueDigest(inner);
  return {};
}

/** An HDF5, NetCDF4 or classic NetCDF file: every variable its tools read. */
export async function readArrays(
  source: RepoFs,
  path: string,
  expected: Expected,
  netcdf: NetcdfEntry | undefined,
): Promise<PartEnd[]> {
  const classic = expected.kind === "netcdf-classic";
  let problems: { path: string; reason: string }[] = [];
  const store = classic && netcdf
    ? netcdf.netcdfStore(source, path)
    : hdf5Store(source, path);
  try {
    if (classic && netcdf) await store.get("/.zgroup");
    else problems = await (store as ReturnType<typeof hdf5Store>).problems();
  } catch (error) {
    return [failed("(file)", error)];
  }
  const ends: PartEnd[] = [];
  const variables = Object.entries(expected.variables ?? {}) as [
    string,
    Expected,
  ][];
  for (const [name, want] of variables) {
    if (want.dimension_only) continue;
    const shown = await shownName(store, name);
    let result: { data: unknown; shape: number[] };
    try {
      result = await getArray(source, path, shown) as typeof result;
    } catch (error) {
      ends.push(failed(name, error));
      continue;
    }
    ends.push(compareArray(name, result, want));
    ends.push(...await compareAttributes(store, shown, want, problems, true));
  }
  const groups = Object.entries(expected.groups ?? {}) as [string, Expected][];
  for (const [name, want] of groups) {
    ends.push(...await compareAttributes(store, name, want, problems, false));
  }
  return ends;
}

/**
 * The variable's name in the store: netCDF's `_nc4_non_coord_` prefix
 * (a variable named like a dimension it does not hold) may be dropped.
 */
async function shownName(
  store: MetadataStore,
  name: string,
): Promise<string> {
  const netcdfName = name.replace(/(^|\/)_nc4_non_coord_/, "$1");
  if (netcdfName === name) return name;
  const found = await store.get(`/${netcdfName}/.zarray`).catch(() =>
    undefined
  );
  return found === undefined ? name : netcdfName;
}

/** Attributes the Zarr view leaves out by design (NetCDF's bookkeeping). */
function hiddenAttribute(name: string, want: Expected): boolean {
  if (HIDDEN_ATTRIBUTES.has(name)) return true;
  const scale = want.attrs?.CLASS?.value === "DIMENSION_SCALE";
  return scale && (name === "CLASS" || name === "NAME");
}

/** One attribute value in the form h5py's is written in (make_expected.py). */
function attributeForm(value: unknown): unknown {
  if (Array.isArray(value)) {
    const values = value.flat(Infinity).map(attributeForm);
    return values.length === 1 ? values[0] : values;
  }
  if (typeof value === "boolean") return Number(value);
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number" && !Number.isFinite(value)) {
    return String(value);
  }
  return value;
}

/** The attributes of a group or variable against h5py's. */
async function compareAttributes(
  store: MetadataStore,
  name: string,
  want: Expected,
  problems: { path: string; reason: string }[],
  dataset: boolean,
): Promise<PartEnd[]> {
  let attrs: Record<string, unknown> = {};
  try {
    const bytes = await store.get(
      name === "" ? "/.zattrs" : `/${name}/.zattrs`,
    );
    attrs = bytes ? JSON.parse(new TextDecoder().decode(bytes)) : {};
  } catch (error) {
    return [failed(`${name}/.zattrs`, error)];
  }
  const ends: PartEnd[] = [];
  const where = name === "" ? "/" : name;
  for (
    const [attr, expected] of Object.entries(want.attrs ?? {}) as [
      string,
      Expected,
    ][]
  ) {
    if (hiddenAttribute(attr, want) || expected.unsupported) continue;
    // The HDF5 view gives a variable's _FillValue as the array's fill_value.
    if (dataset && attr === "_FillValue" && !(attr in attrs)) continue;
    const part = `${where} @${attr}`;
    if (attr in attrs) {
      const got = JSON.stringify(attributeForm(attrs[attr]));
      ends.push(
        got === JSON.stringify(expected.value) ? { part, end: "right" } : {
          part,
          end: "wrong",
          detail: `${got.slice(0, 200)}; expected ${
            JSON.stringify(expected.value).slice(0, 200)
          }`,
        },
      );
      continue;
    }
    const problem = problems.find((p) =>
      p.path === where && p.reason.includes(`"${attr}"`)
    );
    ends.push(
      problem
        ? { part, end: "refused", message: problem.reason }
        : { part, end: "wrong", detail: "left out, and no problem names it" },
    );
  }
  return ends;
}

function compareArray(
  name: string,
  result: { data: unknown; shape: number[] },
  want: Expected,
): PartEnd {
  const shape = JSON.stringify(result.shape);
  const scalar = want.shape.length === 0 && shape === "[1]";
  if (shape !== JSON.stringify(want.shape) && !scalar) {
    return {
      part: name,
      end: "wrong",
      detail: `shape ${shape}, expected ${JSON.stringify(want.shape)}`,
    };
  }
  const got = valueDigest(result.data);
  const right = (want.sha256 !== undefined && got.sha256 === want.sha256) ||
    (want.strings_sha256 !== undefined && got.strings === want.strings_sha256);
  if (right) return { part: name, end: "right" };
  const first = Array.from(
    (result.data as ArrayLike<unknown>) ?? [],
  ).slice(0, 5).map((v) =>
    typeof v === "string" ? JSON.stringify(v) : String(v)
  );
  return {
    part: name,
    end: "wrong",
    detail: `values differ (first ${first.join(", ")}; expected ${
      JSON.stringify(want.first ?? want.unsupported)
    }, dtype ${want.dtype})`,
  };
}

/** A Parquet file: every column of every row, and the row count. */
export async function readColumns(
  source: RepoFs,
  path: string,
  expected: Expected,
  documented?: Record<string, Canonical[]>,
): Promise<PartEnd[]> {
  let rows: Record<string, unknown>[];
  try {
    rows = await readParquet(source, path);
  } catch (error) {
    return [failed("(file)", error)];
  }
  if (expected.refused !== undefined) {
    return [{
      part: "(file)",
      end: "unchecked",
      detail:
        `read ${rows.length} rows where parquet-wasm refuses: ${expected.refused}`,
    }];
  }
  const ends: PartEnd[] = [];
  if (rows.length !== expected.rows) {
    ends.push({
      part: "(rows)",
      end: "wrong",
      detail: `${rows.length} rows, expected ${expected.rows}`,
    });
  }
  for (
    const [name, want] of Object.entries(expected.columns) as [
      string,
      Expected,
    ][]
  ) {
    const got = columnDigest(rows.map((row) => row[name]));
    const byHand = documented?.[name];
    const values = byHand &&
      JSON.stringify(rows.map((row) => canonical(row[name])));
    const right = byHand
      ? values === JSON.stringify(byHand)
      : got.sha256 === want.sha256;
    ends.push(
      right ? { part: name, end: "right" } : {
        part: name,
        end: "wrong",
        detail: byHand
          ? `values ${values}; expected ${JSON.stringify(byHand)}`
          : `first ${JSON.stringify(got.first)}; expected ${
            JSON.stringify(want.first)
          } (${want.type})`,
      },
    );
  }
  return ends;
}
