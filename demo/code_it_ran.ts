/** The demo's last words: the library code it ran, and where to go next. */
export function codeItRan(
  host: string,
  pid: string,
  store: string,
  workers: number,
): string {
  return `
The library code it ran:

  import { RepoFs, RepoFsPool } from "@x/repo-fs";
  import { getArray } from "@x/repo-fs/zarr";

  const fs = new RepoFs({ host: "${host}", pid: "${pid}" });
  const entries = await fs.find("", { withdirs: true });
  for (const entry of await fs.ls("")) console.log(entry.name, entry.size);
  const arrays = await fs.glob("${store}/**/.zarray");
  await using pool = new RepoFsPool(fs, { workers: ${workers} });
  const { data, shape } = await getArray(pool, "${store}", "temperature");

Next: README.md has a quick start for the library and one for the command
line (deno task cli emulate --sample serves this dataset); docs/api.md lists
every verb, docs/cli.md every command, docs/formats.md the zip, NetCDF/HDF5,
Parquet and text readers, docs/script.md the permissions a script needs.`;
}
