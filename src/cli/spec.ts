/**
 * What the command line accepts: the global options, each command with its
 * arguments and options, and the help text made from them.
 *
 * @module
 */

/** One `--option`. */
export interface OptionSpec {
  /** `boolean` for a flag, `string` for an option taking a value. */
  type: "boolean" | "string";
  /** One-letter alias. */
  short?: string;
  /** Placeholder of the value in help (`N`, `DIR`). */
  value?: string;
  /** The value must be an integer (checked when read). */
  integer?: boolean;
  /** The option may be given more than once; its values are kept in order. */
  multiple?: boolean;
  /** A command line using the option, shown under it in help. */
  example?: string;
  /** One line of help. */
  description: string;
}

/** One command. */
export interface CommandSpec {
  /** The command word. */
  name: string;
  /** Its arguments as help shows them. */
  args: string;
  /** Fewest positional arguments. */
  min: number;
  /** Most positional arguments (`Infinity` for no limit). */
  max: number;
  /** One line for the command list. */
  summary: string;
  /** Paragraphs for its own help, after the usage line. */
  details?: string;
  /** Its own options. */
  options: Record<string, OptionSpec>;
}

/** Options every command takes, before or after the command word. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  dataset: {
    type: "string",
    value: "URL",
    description:
      "the dataset's page, citation or API URL, a file's page, or a DOI or Handle (instead of --host and --pid)",
  },
  host: {
    type: "string",
    value: "H",
    description: "repository host (https) or URL (http://127.0.0.1:8080)",
  },
  pid: {
    type: "string",
    value: "P",
    description:
      "dataset persistent id: doi:…, hdl:…, perma:…, or a doi.org / hdl.handle.net URL",
  },
  resolver: {
    type: "string",
    value: "URL",
    description:
      "where a DOI or Handle given as --dataset is resolved (default https://doi.org, https://hdl.handle.net; or REPO_FS_RESOLVER)",
  },
  "token-file": {
    type: "string",
    value: "F",
    description:
      "read the API token from F (wins over REPO_FS_TOKEN and REPO_API_TOKEN)",
  },
  "token-header": {
    type: "string",
    value: "H",
    description:
      "the header that carries the token (default X-Repo-key; X-Dataverse-key on Dataverse; or REPO_FS_TOKEN_HEADER)",
  },
  "collections-path": {
    type: "string",
    value: "P",
    description:
      "collections are at /api/P/ALIAS/contents (default repos; dataverses on Dataverse)",
  },
  "head-concurrency": {
    type: "string",
    value: "N",
    integer: true,
    description: "most simultaneous HEAD requests (default 3)",
  },
  "timeout-ms": {
    type: "string",
    value: "N",
    integer: true,
    description:
      "give up on a request after N ms without progress (default 60000)",
  },
  retries: {
    type: "string",
    value: "N",
    integer: true,
    description:
      "attempts after the first for 429, 5xx and dropped or stalled connections (default 5)",
  },
  "max-bytes": {
    type: "string",
    value: "N",
    integer: true,
    description:
      "read at most N bytes of a file whose size neither listing nor answer says (default 64 GiB)",
  },
  "dataset-version": {
    type: "string",
    value: "V",
    description: ":latest (default), :latest-published, :draft or 1.0",
  },
  tabular: {
    type: "string",
    value: "original|archival",
    description:
      "ingested tabular files as listed (archival, default) or as uploaded (original)",
  },
  "url-cache-dir": {
    type: "string",
    value: "DIR",
    description:
      "keep resolved content URLs in DIR (private files) for later runs until they expire",
  },
  coordinator: {
    type: "string",
    value: "URL",
    description:
      "redis://host:port shared by a fleet: one HEAD budget and URL cache (or REPO_FS_COORDINATOR)",
  },
  json: { type: "boolean", description: "machine-readable JSON on stdout" },
  verbose: {
    type: "boolean",
    description: "log lines on stderr, stack traces on failure",
  },
  help: { type: "boolean", short: "h", description: "show help and exit" },
};

const MAXDEPTH: OptionSpec = {
  type: "string",
  value: "N",
  integer: true,
  description: "descend at most N levels (N >= 1)",
};

/** The commands, in help order. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "ls",
    args: "[PATH]",
    min: 0,
    max: 1,
    summary: "list a directory (the root by default)",
    details:
      "Prints one line per entry: size and full dataset path, directories ending in /.\nOn a file, prints that file. --json prints the entries as an array.",
    options: {
      long: {
        type: "boolean",
        short: "l",
        description: "also the type and the listed checksum of each entry",
        example: "repo-fs ls -l tables",
      },
    },
  },
  {
    name: "tree",
    args: "[PATH]",
    min: 0,
    max: 1,
    summary: "draw the tree below a directory",
    details:
      "--json prints nested objects with a children array per directory.",
    options: {
      maxdepth: {
        ...MAXDEPTH,
        short: "L",
        example: "repo-fs tree climate.zarr -L 1",
      },
    },
  },
  {
    name: "find",
    args: "[PATH]",
    min: 0,
    max: 1,
    summary: "every file below a directory, one path per line",
    options: {
      maxdepth: MAXDEPTH,
      withdirs: {
        type: "boolean",
        description: "list directories too (and PATH itself)",
      },
    },
  },
  {
    name: "glob",
    args: "PATTERN",
    min: 1,
    max: 1,
    summary: "paths matching a glob pattern (* ? [..] **)",
    details:
      "* ? and [...] stay inside one name; ** as a whole segment spans directories.\nQuote the pattern so that the shell leaves it alone.",
    options: {},
  },
  {
    name: "info",
    args: "PATH",
    min: 1,
    max: 1,
    summary: "what the listing says about one path",
    details:
      "For a NetCDF (classic or NetCDF4) or HDF5 file, also its variables: dtype,\nshape, dimensions, chunking and filters; of a classic file, its format and\ndimensions.",
    options: {},
  },
  {
    name: "cat",
    args: "PATH",
    min: 0,
    max: 1,
    summary: "write a file's bytes to stdout",
    details:
      "Without --start/--end the file is streamed. --end is exclusive; a negative\nnumber counts from the end of the file (write --start=-100). PATH may be\nleft out when --dataset is a file's page: that file is read.",
    options: {
      start: {
        type: "string",
        value: "N",
        integer: true,
        description: "first byte (default 0)",
      },
      end: {
        type: "string",
        value: "N",
        integer: true,
        description: "byte after the last (default: end of file)",
      },
      head: {
        type: "string",
        value: "N",
        integer: true,
        description: "only the first N lines",
      },
      tail: {
        type: "string",
        value: "N",
        integer: true,
        description: "only the last N lines",
      },
      "max-line-bytes": {
        type: "string",
        value: "N",
        integer: true,
        description:
          "with --head/--tail: the longest line read, in bytes (default 64 MiB)",
        example: "repo-fs cat wide.csv --head 1 --max-line-bytes 268435456",
      },
    },
  },
  {
    name: "get",
    args: "PATTERN... --out DIR",
    min: 0,
    max: Infinity,
    summary: "download files into a folder, keeping their paths",
    details: [
      "PATTERN is a glob pattern or a path; a directory means everything below it,",
      "and ** means the whole dataset; none means the file of a --dataset file page.",
      "Each file is written to a hidden name, checked against the listed",
      "checksum (MD5, SHA-1, SHA-256, SHA-512) or size, then renamed into place,",
      "so no half-written file is ever under its real name.",
      "Paths that could escape DIR (.., absolute, backslash, control characters,",
      "drive letters, symlinks) are refused and reported; the rest of the download",
      "goes on. Without a token, restricted and embargoed files are skipped and",
      "counted apart. Progress goes to stderr: one line redrawn on a terminal, a",
      "plain line every 5 s on a pipe or file (none with --json, -q, --no-progress).",
      "Exit 0 when every file arrived, 1 when any failed or was refused, 130 when",
      "stopped by Ctrl-C or SIGTERM: the bytes of files not finished are kept, hidden,",
      "for get --resume to go on from (a plain get removes them); a failure keeps none.",
      "--shard I/N fetches share I of N of the selected files: every process computes",
      "the same split, so N processes on N machines fetch each file exactly once.",
    ].join("\n"),
    options: {
      out: {
        type: "string",
        short: "o",
        value: "DIR",
        description: "folder to write into, created if missing",
        example: "repo-fs get 'climate.zarr/**' -o data",
      },
      parallel: {
        type: "string",
        short: "j",
        value: "N",
        integer: true,
        description: "files downloaded at once (default 8)",
        example: "repo-fs get '**' -o data -j 4",
      },
      include: {
        type: "string",
        value: "P",
        multiple: true,
        description:
          "keep only selected files matching P (repeatable; no / in P: the base name)",
        example: "repo-fs get '**' -o data --include '*.nc' --include '*.csv'",
      },
      exclude: {
        type: "string",
        value: "P",
        multiple: true,
        description:
          "leave out selected files matching P (repeatable; applied after --include)",
        example:
          "repo-fs get climate.zarr -o data --exclude 'climate.zarr/precipitation/*'",
      },
      quiet: {
        type: "boolean",
        short: "q",
        description: "no progress line and no summary; failures still shown",
        example: "repo-fs get '**' -o data -q",
      },
      "no-progress": {
        type: "boolean",
        description: "no progress line (the summary stays)",
        example: "repo-fs get '**' -o data --no-progress",
      },
      resume: {
        type: "boolean",
        description:
          "skip files already complete in DIR (listed size and checksum); go on from kept bytes",
      },
      "dry-run": {
        type: "boolean",
        description: "list what would be fetched, with sizes; write nothing",
      },
      shard: {
        type: "string",
        value: "I/N|auto",
        description:
          "only share I (0-based) of N of the files; auto: from the job array (Slurm, Kubernetes, REPO_FS_SHARD)",
      },
    },
  },
  {
    name: "refs",
    args: "FILE",
    min: 1,
    max: 1,
    summary:
      "kerchunk references of a NetCDF (classic or NetCDF4) or HDF5 file",
    details:
      "Prints the file as a Zarr group in kerchunk JSON (version 1): metadata inline,\neach chunk as [URL, offset, length] of the file's access URL, which fsspec and\nzarrita follow to the store. Variables that cannot be mapped are named on stderr.",
    options: {
      out: {
        type: "string",
        value: "F",
        description: "write the JSON to F (complete or not at all)",
      },
      paths: {
        type: "boolean",
        description: "write the file's dataset path instead of its URL",
      },
    },
  },
  {
    name: "show",
    args: "PATH",
    min: 0,
    max: 1,
    summary: "the values inside a file: a variable's slice, a table's rows",
    details: [
      "A NetCDF, HDF5 or Zarr variable (--var, --slice as NumPy: 75,:,0:10, -1, ::2,",
      "...): one row per value with its indices, or nested lists with --format json.",
      "A Parquet, CSV or .tab file: its rows (--rows 0-based, STOP exclusive) of the",
      "--columns asked. A GeoTIFF: --slice ROWS,COLUMNS of its bands. PATH may be a",
      "member of a zip archive ('a.zip!/x.nc'). CSV on a pipe, an aligned table on a",
      "terminal. A missing variable or column, or a bad slice, exits 1.",
    ].join("\n"),
    options: {
      var: {
        type: "string",
        value: "NAME",
        description: "the variable (its path in the file or Zarr hierarchy)",
        example: "repo-fs show ocean.nc --var temperature --slice 75,:,0:10",
      },
      slice: {
        type: "string",
        value: "S",
        description:
          "NumPy-like selection, one part per dimension (default all; --slice=-1 for negatives)",
      },
      columns: {
        type: "string",
        value: "A,B",
        description: "the table columns to show (default all)",
        example: "repo-fs show stations.parquet --columns id,name --rows 0:20",
      },
      rows: {
        type: "string",
        value: "A:B",
        description: "the table rows to show: START:STOP, START:, :STOP or N",
      },
      "max-line-bytes": {
        type: "string",
        value: "N",
        integer: true,
        description:
          "the longest line of a CSV, .tab or .tsv file, in bytes (default 64 MiB)",
      },
      format: {
        type: "string",
        value: "csv|json|table",
        description:
          "output form (default: table on a terminal, else CSV; JSON with --json)",
      },
    },
  },
  {
    name: "datasets",
    args: "ALIAS",
    min: 1,
    max: 1,
    summary: "the datasets of a collection (needs --host only)",
    details:
      "Prints one line per item: the value for --pid, its type and its URL.",
    options: {},
  },
  {
    name: "explore",
    args: "",
    min: 0,
    max: 0,
    summary:
      "serve the dataset explorer page on 127.0.0.1 and print its address",
    details: [
      "Serves the explorer (the dataset's tree and previews of its files, read by",
      "range from the browser) for the dataset the options name, until Ctrl-C.",
      "The printed address carries a random key: the page gets the dataset, and",
      "the token, only with it. Uses dist/explorer/ when built",
      "(deno task build:explorer), else builds it first (needs --allow-run).",
    ].join("\n"),
    options: {
      port: {
        type: "string",
        value: "N",
        integer: true,
        description: "port to serve on (default: any free port)",
      },
    },
  },
  {
    name: "emulate",
    args: "[DIR]",
    min: 0,
    max: 1,
    summary: "serve a local folder (or the sample) as a dataset until Ctrl-C",
    details: [
      "Starts the local repository emulator over DIR (read once at start), or",
      "over the sample dataset with --sample, and prints the repository's and the",
      "object store's addresses and the --host and --pid to use with the other",
      "commands. --pid picks the id. REPO_FS_TOKEN, REPO_API_TOKEN and --token-file",
      "are ignored:",
      "--token T makes the repository refuse requests without T (401) in the",
      "token header (--token-header H or REPO_FS_TOKEN_HEADER; default X-Repo-key).",
      "Example: repo-fs emulate --sample --latency-ms 50 --port 8080",
    ].join("\n"),
    options: {
      port: {
        type: "string",
        value: "N",
        integer: true,
        description: "port of the repository API (default: any free port)",
      },
      sample: {
        type: "boolean",
        description:
          "serve the sample dataset (Zarr store, tables, nested folders)",
      },
      "latency-ms": {
        type: "string",
        value: "N",
        integer: true,
        description: "answer every request N ms late, as a distant server",
      },
      token: {
        type: "string",
        value: "T",
        description: "refuse repository requests not carrying T (401)",
      },
      "no-redirect": {
        type: "boolean",
        description:
          "serve file bytes from the repository, not by redirect to the store",
      },
    },
  },
];

/** The command of a given name. */
export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** Help text for the tool, or for one command. */
export function helpText(command?: CommandSpec): string {
  if (command === undefined) {
    const width = Math.max(...COMMANDS.map((c) => c.name.length));
    return [
      "repo-fs: browse and download a dataset of a research-data repository",
      "",
      "Usage: repo-fs --dataset URL [options] COMMAND [ARGS]",
      "       repo-fs --host H --pid P [options] COMMAND [ARGS]",
      "       repo-fs COMMAND --help",
      "",
      "Commands:",
      ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      "",
      "Global options (before or after the command):",
      ...optionLines(GLOBAL_OPTIONS),
      "",
      "The API token is read from --token-file F, else REPO_FS_TOKEN, else REPO_API_TOKEN;",
      "its header from --token-header H, else REPO_FS_TOKEN_HEADER.",
      "Without --dataset, --host or --pid: REPO_FS_DATASET, REPO_FS_HOST, REPO_FS_PID.",
      "Example: repo-fs --dataset 'https://demo.dataverse.org/dataset.xhtml?persistentId=doi:10.70122/FK2/ABC' tree",
      "A path through a zip archive of the dataset: 'data.zip!/dir/file' (quoted).",
      "Exit status: 0 success, 1 failure, 2 bad usage, 130 interrupted.",
      "",
    ].join("\n");
  }
  const own = Object.keys(command.options).length > 0
    ? ["", "Options:", ...optionLines(command.options)]
    : [];
  return [
    `Usage: repo-fs [global options] ${command.name} ${command.args}`.trimEnd(),
    "",
    `${command.summary[0].toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.details ? ["", command.details] : []),
    ...own,
    "",
    "Global options: --dataset URL --host H --pid P --resolver URL",
    "  --token-file F --token-header H",
    "  --collections-path P --head-concurrency N",
    "  --timeout-ms N --retries N --max-bytes N --dataset-version V --tabular T",
    "  --url-cache-dir DIR --coordinator URL --json --verbose",
    "  (see repo-fs --help)",
    "",
  ].join("\n");
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const heads = Object.entries(options).map(([name, spec]) =>
    [
      `${spec.short ? `-${spec.short}, ` : ""}--${name}${
        spec.value ? ` ${spec.value}` : ""
      }`,
      spec.description,
    ] as const
  );
  const width = Math.max(...heads.map(([head]) => head.length));
  return heads.flatMap(([head, text], i) => {
    const { example } = Object.values(options)[i];
    const line = `  ${head.padEnd(width)}  ${text}`;
    return example === undefined
      ? [line]
      : [line, `  ${" ".repeat(width)}    e.g. ${example}`];
  });
}
