/**
 * Turns the emulator options into listing entries: the sample, the `files`
 * map, the `dir` folder and the verbatim `entries`.
 *
 * @module
 */

import { sampleDataset } from "./sample.ts";
import type {
  EmulatorEntry,
  EmulatorFileSpec,
  EmulatorOptions,
} from "./options.ts";

/** Content as the options may give it. */
type FileValue = Uint8Array | string | EmulatorFileSpec;

/**
 * A version's files: `main` for the dataset's own version, `versions` for
 * the extra named ones.
 */
export interface DatasetSources {
  /** Entries of the dataset's current version. */
  main: EmulatorEntry[];
  /** Entries of each extra named version. */
  versions: Record<string, EmulatorEntry[]>;
}

/** Collects the entries of every version, reading `options.dir` once. */
export async function collectSources(
  options: EmulatorOptions,
): Promise<DatasetSources> {
  const main = entriesOf([
    ...Object.entries(options.sample ? await sampleDataset() : {}),
    ...Object.entries(options.files ?? {}),
  ]);
  if (options.dir !== undefined) {
    main.push(...entriesOf(await readFolder(options.dir)));
  }
  main.push(...(options.entries ?? []));
  const versions: Record<string, EmulatorEntry[]> = {};
  for (const [name, files] of Object.entries(options.versions ?? {})) {
    versions[name] = entriesOf(Object.entries(files));
  }
  return { main, versions };
}

/** The file description of any accepted content form. */
export function toFileSpec(value: FileValue): EmulatorFileSpec {
  return typeof value === "string" || value instanceof Uint8Array
    ? { content: value }
    : value;
}

function entriesOf(files: [string, FileValue][]): EmulatorEntry[] {
  return files.map(([path, file]) => {
    const slash = path.lastIndexOf("/");
    return slash === -1 ? { filename: path, file } : {
      directoryLabel: path.slice(0, slash),
      filename: path.slice(slash + 1),
      file,
    };
  });
}

/**
 * The files below `root`, by their paths from it. Symbolic links are
 * followed only to what is inside `root` and not back up to a folder being
 * read; anything that is neither a file nor a folder (a FIFO, a device) is
 * refused, as it is never a dataset's file.
 */
async function readFolder(root: string): Promise<[string, Uint8Array][]> {
  const files: [string, Uint8Array][] = [];
  const realRoot = await Deno.realPath(root);
  async function walk(
    dir: string,
    prefix: string,
    ancestors: Set<string>,
  ): Promise<void> {
    const children: Deno.DirEntry[] = [];
    for await (const child of Deno.readDir(dir)) children.push(child);
    children.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const child of children) {
      const full = `${dir}/${child.name}`;
      const path = prefix + child.name;
      const real = await Deno.realPath(full);
      if (real !== realRoot && !real.startsWith(`${realRoot}/`)) {
        throw new Error(`${full} leads outside ${root}; not served`);
      }
      const stat = await Deno.stat(real);
      if (stat.isDirectory) {
        if (ancestors.has(real)) {
          throw new Error(
            `${full} leads back to a folder it is in; not served`,
          );
        }
        await walk(full, `${path}/`, new Set([...ancestors, real]));
      } else if (stat.isFile) {
        files.push([path, await Deno.readFile(real)]);
      } else {
        throw new Error(`${full} is neither a file nor a folder; not served`);
      }
    }
  }
  await walk(root, "", new Set([realRoot]));
  return files;
}
