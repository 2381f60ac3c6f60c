/**
 * Content URLs signed the way other object stores sign them, served by the
 * emulator: the access endpoint's redirect carries a URL made from the
 * emulator's own (another scheme, another date), and the store answers a
 * request for it with the bytes of the emulator's URL behind it.
 */

import type { Emulator, RequestInfo } from "../emulator.ts";

/** What a test changes of the emulator's redirects and store answers. */
export interface Disguise {
  /** The URL the redirect carries instead of the emulator's `signed` one; `undefined` keeps it. */
  rewrite?(signed: URL, fileId: number): string | undefined;
  /** The redirect's `Date` header (asked before `rewrite`); the emulator's own when absent. */
  date?(fileId: number): Date | undefined;
  /** The store's answer to a content request instead of the bytes; `undefined` serves them. */
  refuse?(request: Request, info: RequestInfo): Response | undefined;
}

/** HEADs the repository was sent, by file id. */
export type HeadCounts = Map<number, number>;

/** Request headers a content request carries on to the store behind. */
const FORWARDED = ["range", "accept-encoding", "if-match", "if-range"];

/**
 * Sets `emu.faults.respond` so that redirects and store answers follow
 * `disguise` (read live: a test may change its methods between reads).
 * Returns the HEADs counted by file.
 */
export function disguiseUrls(emu: Emulator, disguise: Disguise): HeadCounts {
  const heads: HeadCounts = new Map();
  const behind = new Map<string, string>();
  emu.faults.respond = async (request, info) => {
    if (info.origin === "repository" && info.route === "head") {
      const id = info.fileId!;
      heads.set(id, (heads.get(id) ?? 0) + 1);
      const answer = await info.next();
      const location = answer.headers.get("location");
      const date = disguise.date?.(id);
      const shown = location === null
        ? undefined
        : disguise.rewrite?.(new URL(location), id);
      if (shown === undefined && date === undefined) return answer;
      const headers = new Headers(answer.headers);
      if (shown !== undefined) {
        behind.set(new URL(shown).href, location!);
        headers.set("location", shown);
      }
      if (date !== undefined) headers.set("date", date.toUTCString());
      return new Response(null, { status: answer.status, headers });
    }
    if (info.origin === "store" && info.route === "content") {
      const refusal = disguise.refuse?.(request, info);
      if (refusal !== undefined) return refusal;
      const real = behind.get(new URL(request.url).href);
      if (real === undefined) return undefined;
      const headers = new Headers();
      for (const name of FORWARDED) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      return await fetch(real, { headers });
    }
    return undefined;
  };
  return heads;
}

/** `20260101T000000Z`, as S3 and GCS V4 sign dates. */
export function compactDate(at: number): string {
  return new Date(at).toISOString().replace(/[-:]|\.\d+/g, "");
}

/** An S3-style XML error answer. */
export function xmlError(status: number, code: string, message: string) {
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    { status, headers: { "content-type": "application/xml" } },
  );
}
