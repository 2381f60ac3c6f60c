/**
 * The README's two quick starts, run as a user would run them against the
 * bundled sample: the library example (and the pool example appended to it)
 * as a script, the command-line session against `repo-fs emulate --sample`.
 * What they print must be what the README shows, once the random ports (and
 * the seconds a download took) are put back to the README's. The install
 * lines for a checkout run as written from a project beside a copy of the
 * index (files and modes, `cli.ts` executable).
 */

import { equal, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { cliCommand, filesBelow, finished } from "./support.ts";

const README = await Deno.readTextFile(
  new URL("../README.md", import.meta.url),
);
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const decoder = new TextDecoder();

/** The text of the README's section `## title`, up to the next section. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  ok(start >= 0, `README has a section "${title}"`);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The fenced code blocks of `text`, in order. */
function codeBlocks(text: string): { info: string; body: string }[] {
  return [...text.matchAll(/^```(.*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    info: m[1],
    body: m[2],
  }));
}

/** A console block's commands (after `$ `), each with the output shown below it. */
function session(body: string): { command: string; output: string }[] {
  const steps: { command: string; output: string }[] = [];
  for (const line of body.split("\n").slice(0, -1)) {
    if (line.startsWith("$ ")) {
      steps.push({ command: line.slice(2), output: "" });
    } else steps[steps.length - 1].output += `${line}\n`;
  }
  return steps;
}

/** A command's words: plain words and single-quoted ones, nothing else a shell would expand. */
function words(command: string): string[] {
  const found = [...command.matchAll(/'([^']*)'|([^\s']+)/g)];
  ok(
    found.every((m) => m[2] === undefined || !/["$`|;&<>\\*?]/.test(m[2])),
    `the README's command is plain words and single quotes: ${command}`,
  );
  return found.map((m) => m[1] ?? m[2]);
}

Deno.test("the README's library quick start prints what the README shows, and the pool example appended to it the shape it names", async () => {
  const [example, printed, poolExample] = codeBlocks(
    section("Quick start: the library"),
  );
  equal(example.info, "ts");
  const shown = poolExample.body.match(/console\.log\(.*\); \/\/ (.*)\n/)?.[1];
  ok(shown, "the pool example names what it prints");
  const dir = await Deno.makeTempDir();
  try {
    const script = join(dir, "quick_start.ts");
    await Deno.writeTextFile(script, example.body + poolExample.body);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", CONFIG, script],
      stdin: "null",
    }).output();
    equal(code, 0, decoder.decode(stderr));
    equal(decoder.decode(stdout), `${printed.body}${shown}\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** `repo-fs emulate ARGS`, with what it printed up to "Stop with Ctrl-C.". */
async function emulate(args: string[]) {
  const child = cliCommand(args).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("Stop with Ctrl-C.\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return {
    text,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await Promise.all([child.status, child.stderr.cancel(), reader.cancel()]);
    },
  };
}

/** The repository's and the store's ports in emulate's output. */
function ports(text: string): [string, string] {
  const repository = text.match(/repository: +http:\/\/127\.0\.0\.1:(\d+)/);
  const store = text.match(/object store: +http:\/\/127\.0\.0\.1:(\d+)/);
  ok(repository && store, text);
  return [repository[1], store[1]];
}

/** `text` with each `from` port replaced by the `to` port at the same place. */
function swapPorts(text: string, from: string[], to: string[]): string {
  return text.replace(
    /127\.0\.0\.1:(\d+)/g,
    (whole, port) =>
      from.includes(port) ? `127.0.0.1:${to[from.indexOf(port)]}` : whole,
  );
}

Deno.test("the README's command-line quick start, run against emulate --sample, prints what the README shows", async () => {
  const [served, commands] = codeBlocks(
    section("Quick start: the command line"),
  ).filter((block) => block.info === "console").map((block) =>
    session(block.body)
  );
  equal(served.length, 1);
  const [repo, emulateCommand] = words(served[0].command);
  equal(repo, "repo-fs");
  equal(emulateCommand, "emulate");
  const shownPorts = ports(served[0].output);

  await using emu = await emulate(words(served[0].command).slice(1));
  const realPorts = ports(emu.text);
  equal(swapPorts(emu.text, realPorts, shownPorts), served[0].output);

  const dir = await Deno.makeTempDir();
  try {
    const env: Record<string, string> = {};
    ok(commands.length >= 5, "the README shows a few commands");
    for (const { command, output } of commands) {
      const [first, ...rest] = words(swapPorts(command, shownPorts, realPorts));
      if (first === "export") {
        const [name, value] = rest.join(" ").split(/=(.*)/s);
        env[name] = value;
        equal(output, "", `${command} prints nothing`);
        continue;
      }
      equal(first, "repo-fs", command);
      const run = await finished(cliCommand(rest, env, "piped", dir).spawn());
      // On a pipe, a download longer than five seconds adds progress lines.
      const stderr = run.stderr.replace(/^\d+\/\d+ files.*\n/gm, "");
      const shownSeconds = output.match(/^Downloaded .* in (\d+\.\d) s/m)?.[1];
      const stdout = shownSeconds === undefined ? run.stdout : run.stdout
        .replace(/^(Downloaded .* in )\d+\.\d( s)/m, `$1${shownSeconds}$2`);
      equal(stdout + stderr, output, command);
      equal(run.code, stderr === "" ? 0 : 1, `${command}: exit status`);
    }
    const got = commands.find((step) => / get .* -o out/.test(step.command));
    ok(got, "the README shows a download");
    const count = Number(got.output.match(/^Downloaded (\d+) of/)?.[1]);
    ok(count > 0);
    equal((await filesBelow(join(dir, "out"))).length, count);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const ROOT = new URL("..", import.meta.url).pathname;

/** Runs `command` with `sh` in `cwd`, finding the `deno` running the tests on PATH. */
async function shell(command: string, cwd: string) {
  const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
  const { code, stdout, stderr } = await new Deno.Command("sh", {
    args: ["-c", command],
    cwd,
    env: { PATH: path, NO_COLOR: "1" },
    stdin: "null",
  }).output();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
  };
}

/** Whether `name` runs here. */
async function runs(name: string): Promise<boolean> {
  return await new Deno.Command(name, { args: ["--version"], stdout: "null" })
    .output().then((o) => o.success, () => false);
}

Deno.test("cli.ts is executable in the index, so a clone can run ./cli.ts", async () => {
  const { stdout } = await new Deno.Command("git", {
    args: ["ls-files", "-s", "cli.ts"],
    cwd: ROOT,
  }).output();
  ok(decoder.decode(stdout).startsWith("100755 "), decoder.decode(stdout));
});

Deno.test("the README's install-from-a-checkout lines run as written, from a project beside a checkout", async () => {
  const [, lines] = codeBlocks(section("Install"));
  ok(lines.info === "sh", "the second block of Install is the checkout's");
  const [deno, node] = lines.body.trimEnd().split("\n");
  const [example, printed] = codeBlocks(section("Quick start: the library"));
  const { version } = JSON.parse(await Deno.readTextFile(CONFIG));
  ok(
    node.includes(`npm install ../repo-fs/x-repo-fs-${version}.tgz`),
    `the tarball deno pack writes for version ${version}: ${node}`,
  );
  const dir = await Deno.makeTempDir();
  try {
    // A checkout as git writes one: the index's files and modes.
    const checkout = await new Deno.Command("git", {
      args: ["checkout-index", "-a", `--prefix=${join(dir, "repo-fs")}/`],
      cwd: ROOT,
    }).output();
    equal(checkout.code, 0, decoder.decode(checkout.stderr));
    const help = await shell("./cli.ts --help", join(dir, "repo-fs"));
    ok(help.stdout.startsWith("repo-fs: browse"), help.stderr);
    const project = join(dir, "my-project");
    await Deno.mkdir(project);
    await Deno.writeTextFile(join(project, "quick_start.ts"), example.body);

    const quick = await shell(deno, project);
    equal(quick.code, 0, quick.stderr);
    equal(quick.stdout, printed.body);

    if (!(await runs("npm")) || !(await runs("node"))) {
      console.log("npm or node missing: the README's Node line not run");
      return;
    }
    const packed = await shell(node, project);
    equal(packed.code, 0, packed.stderr);
    const imported = await shell(
      `node --input-type=module -e 'import { RepoFs } from "@x/repo-fs"; console.log(new RepoFs({ host: "repo.example.org", pid: "doi:10.5072/FK2/A" }).pid)'`,
      project,
    );
    equal(imported.stdout, "doi:10.5072/FK2/A\n", imported.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
