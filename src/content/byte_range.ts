/**
 * The range rules, in one place: fsspec's `start`/`end` semantics turned
 * into a plan and a `Range` header, and the parsing of the `Content-Range`
 * that answers it (checked in `content_answer.ts`).
 *
 * @module
 */

import { RepoProtocolError } from "../base/errors.ts";

/**
 * What to fetch for a `start`/`end` pair.
 *
 * - `empty`: nothing (`start >= end`)
 * - `from`: `start` to the end of the file, however long it is
 * - `suffix`: the last `length` bytes
 * - `bounded`: `start` up to `end` (exclusive), clipped at the end of file
 */
export type RangePlan =
  | { kind: "empty" }
  | { kind: "from"; start: number }
  | { kind: "suffix"; length: number }
  | { kind: "bounded"; start: number; end: number };

/**
 * Checks `start`/`end` are integers (or absent) and says whether planning
 * needs the file's size: only when `end` is given and one bound is negative.
 */
export function needsSize(start?: number | null, end?: number | null): boolean {
  for (const [name, value] of [["start", start], ["end", end]] as const) {
    if (value != null && !Number.isSafeInteger(value)) {
      throw new TypeError(`${name} must be an integer, got ${value}`);
    }
  }
  return end != null && ((start ?? 0) < 0 || end < 0);
}

/**
 * Turns fsspec's `start`/`end` (end exclusive, negatives counted from the
 * end of the file) into a plan. `size` is needed when
 * {@linkcode needsSize} says so.
 */
export function planRange(
  start?: number | null,
  end?: number | null,
  size?: number,
): RangePlan {
  const from = start ?? 0;
  if (needsSize(start, end)) {
    if (size === undefined) throw new TypeError("planRange needs the size");
    const absolute = (n: number) => n < 0 ? Math.max(0, size + n) : n;
    return bounded(absolute(from), Math.min(absolute(end!), size));
  }
  if (end == null) {
    return from < 0
      ? { kind: "suffix", length: -from }
      : { kind: "from", start: from };
  }
  return bounded(from, end);
}

function bounded(start: number, end: number): RangePlan {
  return start >= end ? { kind: "empty" } : { kind: "bounded", start, end };
}

/** The `Range` header value of a plan; `undefined` for a whole-file read. */
export function rangeHeader(plan: RangePlan): string | undefined {
  switch (plan.kind) {
    case "bounded":
      return `bytes=${plan.start}-${plan.end - 1}`;
    case "suffix":
      return `bytes=-${plan.length}`;
    case "from":
      return plan.start === 0 ? undefined : `bytes=${plan.start}-`;
    case "empty":
      return undefined;
  }
}

/**
 * A parsed `Content-Range`: `first`..`last` inclusive of `total` bytes
 * (`total` undefined for `*`). For an unsatisfied range (416), `first` and
 * `last` are undefined.
 */
export interface ContentRange {
  /** First byte sent. */
  first?: number;
  /** Last byte sent (inclusive). */
  last?: number;
  /** Size of the whole file, when the server says. */
  total?: number;
}

/**
 * Parses a `Content-Range` header; a malformed one is a
 * {@linkcode RepoProtocolError}.
 */
export function parseContentRange(
  value: string | null,
  url: string,
): ContentRange {
  const match = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(
    value?.trim() ?? "",
  );
  if (!match) {
    throw new RepoProtocolError(
      `malformed Content-Range ${JSON.stringify(value)}`,
      url,
    );
  }
  const [, first, last, total] = match;
  const range: ContentRange = {
    first: first === undefined ? undefined : Number(first),
    last: last === undefined ? undefined : Number(last),
    total: total === "*" ? undefined : Number(total),
  };
  if (range.first !== undefined && range.last! < range.first) {
    throw new RepoProtocolError(
      `Content-Range ${value} ends before it starts`,
      url,
    );
  }
  return range;
}
