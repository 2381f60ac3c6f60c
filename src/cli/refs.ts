/**
 * The `refs` command: the kerchunk references of a NetCDF file (classic or
 * NetCDF4) or an HDF5 file.
 *
 * @module
 */

import { rename, rm, writeFile } from "node:fs/promises";
import { netcdfReferences } from "../formats/netcdf/references.ts";
import { stringOption } from "./args.ts";
import type { Context } from "./context.ts";

/**
 * `refs FILE [--out F] [--paths]`: the kerchunk JSON (version 1) of a
 * NetCDF (classic or NetCDF4) or HDF5 file of the dataset, to stdout or written to `F` (under a
 * temporary name, then renamed into place). Each variable left out is
 * named on stderr.
 */
export async function refs(context: Context): Promise<number> {
  const path = context.arg(0)!;
  const out = stringOption(context.line, "out");
  const references = await netcdfReferences(await context.dataset(), path, {
    paths: context.line.values.paths === true,
  });
  for (const { path: variable, reason } of references.problems ?? []) {
    context.out.error(`${path}: left out ${variable}: ${reason}`);
  }
  const text = `${JSON.stringify(references)}\n`;
  if (out === undefined) {
    await context.out.print(text.trimEnd());
    return 0;
  }
  const temporary = `${out}.partial-${crypto.randomUUID()}`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return 0;
}
