/**
 * A lock that serialises the writers of one file across processes: a lock
 * file beside it, made with `O_EXCL` (`wx`), holding the holder's pid and
 * host. Synchronous, since the last write of the URL cache happens as the
 * process exits. A lock whose holder is gone (same host, its pid no longer
 * runs) or older than a bound is broken: {@linkcode STALE_LOCK_MS} for the
 * few milliseconds of one read-merge-rename; a holder that keeps it longer
 * touches it to stay fresh.
 *
 * @module
 */

/** A lock this old is taken to be left by a process that died holding it. */
export const STALE_LOCK_MS = 5_000;
/** The longest sleep between two tries. */
const MAX_SLEEP_MS = 20;

type Fs = typeof import("node:fs");
type Os = typeof import("node:os");

/** What a lock file holds. */
interface Holder {
  pid: number;
  host?: string;
}

/**
 * Takes the lock `lock` (a path), waiting for another holder to release it
 * or for it to go stale, runs `work`, and releases it.
 * @param io `node:fs` and `node:os`
 * @throws what making the lock file throws, other than "it exists"
 */
export function withFileLock<T>(
  { fs, os }: { fs: Fs; os: Os },
  lock: string,
  work: () => T,
): T {
  const me = { pid: processId(), host: hostName(os) };
  const mine = acquire(fs, lock, me, STALE_LOCK_MS, true)!;
  try {
    return work();
  } finally {
    release(fs, lock, mine);
  }
}

/** A lock held by {@linkcode tryFileLock}. */
export interface HeldLock {
  /** Marks it fresh: a lock older than its bound is taken to be left. */
  touch(): void;
  /** Removes it, if it is still this holder's. */
  release(): void;
}

/**
 * Takes the lock `lock` if no other holder has it (one gone, or whose lock
 * is older than `staleMs`, has not): one try, no wait; `undefined` when
 * another holds it.
 * @param io `node:fs` and `node:os`
 * @throws what making the lock file throws, other than "it exists"
 */
export function tryFileLock(
  { fs, os }: { fs: Fs; os: Os },
  lock: string,
  staleMs: number,
): HeldLock | undefined {
  const me = { pid: processId(), host: hostName(os) };
  const mine = acquire(fs, lock, me, staleMs, false);
  if (mine === undefined) return undefined;
  return {
    touch() {
      const now = new Date();
      try {
        fs.utimesSync(lock, now, now);
      } catch {
        // Removed by another that judged it stale: nothing to keep fresh.
      }
    },
    release: () => release(fs, lock, mine),
  };
}

/**
 * Makes the lock file, waiting for another holder when `wait`; gives its
 * inode, to release only this one, or `undefined` when held and not waiting.
 */
function acquire(
  fs: Fs,
  lock: string,
  me: Holder,
  staleMs: number,
  wait: boolean,
): number | undefined {
  for (let sleep = 1;; sleep = Math.min(2 * sleep, MAX_SLEEP_MS)) {
    try {
      const fd = fs.openSync(lock, "wx", 0o600);
      try {
        fs.writeSync(fd, JSON.stringify(me));
        return fs.fstatSync(fd).ino;
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    const held = statOrNull(fs, lock);
    if (held === null) continue;
    if (isStale(fs, lock, held, me, staleMs)) breakLock(fs, lock, held);
    else if (wait) sleepSync(sleep);
    else return undefined;
  }
}

/** Removes the lock file if it is still the one this writer made. */
function release(fs: Fs, lock: string, ino: number): void {
  if (statOrNull(fs, lock)?.ino === ino) fs.rmSync(lock, { force: true });
}

/** Whether the lock at `lock` was left by a holder that is gone. */
function isStale(
  fs: Fs,
  lock: string,
  held: import("node:fs").Stats,
  me: Holder,
  staleMs: number,
): boolean {
  if (Date.now() - held.mtimeMs > staleMs) return true;
  let holder: Partial<Holder>;
  try {
    holder = JSON.parse(fs.readFileSync(lock, "utf8"));
  } catch {
    return false; // being written, or just removed: its age decides
  }
  if (me.host === undefined || holder.host !== me.host) return false;
  return typeof holder.pid === "number" && isGone(holder.pid);
}

/**
 * Moves the stale lock aside and removes it. When what was moved is not
 * the lock judged stale (another writer broke that one and took the lock
 * meanwhile), it is put back unless the place was taken again.
 */
function breakLock(
  fs: Fs,
  lock: string,
  judged: import("node:fs").Stats,
): void {
  const aside = `${lock}.${crypto.randomUUID()}.stale`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // another writer broke it first
  }
  try {
    const moved = fs.statSync(aside);
    if (moved.ino !== judged.ino || moved.mtimeMs !== judged.mtimeMs) {
      fs.linkSync(aside, lock);
    }
  } catch {
    // The place was taken again: that writer holds the lock now.
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function statOrNull(fs: Fs, path: string): import("node:fs").Stats | null {
  try {
    return fs.statSync(path);
  } catch {
    return null;
  }
}

/** Blocks the thread for `ms` (nothing asynchronous runs at exit). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The global `process` of Deno, Node and Bun, as far as it is used here. */
interface NodeProcess {
  pid: number;
  kill(pid: number, signal: 0): boolean;
}

const process = (globalThis as { process?: NodeProcess }).process;

function processId(): number {
  return process?.pid ?? 0;
}

/**
 * Whether Deno lets this process do `permission` without asking (asking
 * would stop the command at a prompt); always in Node and Bun.
 */
function allowed(permission: Deno.PermissionDescriptor): boolean {
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  return deno === undefined ||
    deno.permissions.querySync(permission).state === "granted";
}

/** Where hostnames may not be asked, only a lock's age makes it stale. */
function hostName(os: Os): string | undefined {
  if (!allowed({ name: "sys", kind: "hostname" })) return undefined;
  return os.hostname();
}

/** Whether no process runs as `pid` on this machine; `false` when unknown. */
function isGone(pid: number): boolean {
  if (process === undefined || !allowed({ name: "run" })) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}
