#!/usr/bin/env -S deno run --unstable-no-legacy-abort --allow-net --allow-read --allow-write --allow-env
/**
 * `repo-fs`, the command line of repo-fs: browse a dataset of a
 * research-data repository as a file tree, read files, download them
 * safely, and serve a local folder as a dataset for trying it all out.
 *
 * ```sh
 * deno install --global --config deno.json --allow-net --allow-read --allow-write --allow-env -n repo-fs cli.ts
 * repo-fs --host repo.example.org --pid doi:10.5072/FK2/ABC tree
 * repo-fs --host repo.example.org --pid doi:10.5072/FK2/ABC get 'climate.zarr' --out data
 * ```
 *
 * Commands: `ls`, `tree`, `find`, `glob`, `info`, `cat`, `get`, `datasets`,
 * `emulate`; `repo-fs --help` and `repo-fs COMMAND --help` tell more. The
 * API token comes from `--token-file F` or else `REPO_API_TOKEN`. Exit
 * status: 0 success, 1 failure (one line on stderr), 2 bad usage, 130
 * interrupted.
 *
 * @example
 * ```ts
 * import { main } from "@x/repo-fs/cli";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const status = await main(["--host", emu.host, "--pid", emu.pid, "--json", "ls"]);
 * strictEqual(status, 0); // and the entries are on stdout as JSON
 * ```
 *
 * @module
 */

export { main } from "./src/cli/main.ts";
import { main } from "./src/cli/main.ts";

if (import.meta.main) Deno.exit(await main(Deno.args));
