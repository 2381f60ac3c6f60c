/**
 * The repository origin: collection contents, dataset and version listings,
 * the paged file list, the list of versions, the file persistent-id lookup
 * and the file-access endpoint, all under `/api`.
 *
 * @module
 */

import { contentReply } from "./content.ts";
import type { EmulatorContext } from "./context.ts";
import { enterInFlight } from "./counters.ts";
import { embargoActive } from "../api/listing_entry.ts";
import type { StoredFile } from "./dataset.ts";
import { type Answered, answerWithRules } from "./fault_answer.ts";
import type { FaultRoute } from "./faults.ts";
import {
  fileIdAnswer,
  filePageAnswer,
  filePidAnswer,
  listingAnswer,
  noSuchEndpoint,
  versionListAnswer,
} from "./listings.ts";
import { clientGone, envelopeError, jsonReply } from "./replies.ts";

type Route =
  | { kind: "collection"; alias: string }
  | { kind: "listing"; version?: string }
  | { kind: "files"; version: string }
  | { kind: "versions" }
  | { kind: "filePid" }
  | { kind: "fileId"; id: string }
  | { kind: "access"; id: string }
  | { kind: "unknown" };

/** Routes of the dataset and version endpoints, counted as listing calls. */
const LISTING_KINDS = new Set<Route["kind"]>(["listing", "files", "versions"]);

/** The request handler of the repository origin. */
export function repositoryHandler(
  context: EmulatorContext,
): (request: Request) => Promise<Response> {
  const { counters, faults } = context;
  const collections = new RegExp(
    `^/api/${RegExp.escape(context.collectionsPath)}/([^/]+)/contents/?$`,
  );
  return async (request) => {
    const url = new URL(request.url);
    const route = matchRoute(request.method, url.pathname, collections);
    const routes: FaultRoute[] = [];
    let leaveHead: (() => void) | undefined;
    let leaveListing: (() => void) | undefined;
    if (route.kind === "collection") {
      counters.collectionCalls++;
      routes.push("collection");
    }
    if (LISTING_KINDS.has(route.kind)) {
      leaveListing = enterInFlight(counters, "listing");
      routes.push("listing");
    }
    if (route.kind === "access" && request.method === "HEAD") {
      leaveHead = enterInFlight(counters, "head");
      routes.push("head");
    }
    if (route.kind === "access" && request.method === "GET") {
      counters.accessGets++;
      routes.push("content");
    }
    try {
      if (await context.pause(request, faults.latencyMs)) return clientGone();
      const { response, sent } = await answerWithRules(
        context,
        "repo",
        request,
        routes,
        () => answer(context, request, url, route),
      );
      if (route.kind === "access") counters.accessBytes += sent;
      return response;
    } finally {
      leaveHead?.();
      leaveListing?.();
    }
  };
}

/** The repository's own answer to `request`, and the content bytes it sends. */
function answer(
  context: EmulatorContext,
  request: Request,
  url: URL,
  route: Route,
): Answered {
  if (context.token !== undefined && !carriesToken(context, request, url)) {
    return json(envelopeError(401, "Bad API key"));
  }
  switch (route.kind) {
    case "collection":
      return json(collection(context, route.alias));
    case "listing":
      return json(listingAnswer(context, url, route.version));
    case "files":
      return json(filePageAnswer(context, url, route.version));
    case "versions":
      return json(versionListAnswer(context, url));
    case "filePid":
      return json(filePidAnswer(context, url));
    case "fileId":
      return json(fileIdAnswer(context, route.id));
    case "access":
      return access(context, request, route.id);
    case "unknown":
      return json(noSuchEndpoint());
  }
}

function json(response: Response): Answered {
  return { response, sent: 0 };
}

function matchRoute(method: string, path: string, collections: RegExp): Route {
  let match: RegExpExecArray | null;
  if (method === "GET") {
    if ((match = collections.exec(path))) {
      return { kind: "collection", alias: decode(match[1]) };
    }
    if (/^\/api\/datasets\/:persistentId\/?$/.test(path)) {
      return { kind: "listing" };
    }
    if (/^\/api\/datasets\/:persistentId\/versions\/?$/.test(path)) {
      return { kind: "versions" };
    }
    match = /^\/api\/datasets\/:persistentId\/versions\/([^/]+)\/?$/.exec(path);
    if (match) return { kind: "listing", version: decode(match[1]) };
    match = /^\/api\/datasets\/:persistentId\/versions\/([^/]+)\/files\/?$/
      .exec(path);
    if (match) return { kind: "files", version: decode(match[1]) };
    if (/^\/api\/files\/:persistentId\/?$/.test(path)) {
      return { kind: "filePid" };
    }
    match = /^\/api\/files\/(\d+)\/?$/.exec(path);
    if (match) return { kind: "fileId", id: match[1] };
  }
  if (method === "GET" || method === "HEAD") {
    if ((match = /^\/api\/access\/datafile\/([^/]+)\/?$/.exec(path))) {
      return { kind: "access", id: decode(match[1]) };
    }
  }
  return { kind: "unknown" };
}

function collection(context: EmulatorContext, alias: string): Response {
  if (alias !== context.dataset.alias) {
    return envelopeError(
      404,
      `Can't find dataverse with identifier='${alias}'`,
    );
  }
  return jsonReply(context.dataset.collectionJson);
}

/**
 * The file-access endpoint: a restricted or embargoed file is refused (the
 * real software gives both the same 403) unless it is granted to the
 * holder of the emulator's token and the request carries it; `format=original`
 * asks for a tabular file's original upload.
 */
function access(
  context: EmulatorContext,
  request: Request,
  id: string,
): Answered {
  const listed = /^\d+$/.test(id)
    ? context.dataset.filesById.get(Number(id))
    : undefined;
  if (!listed) return json(envelopeError(404, "File not found for given id."));
  const locked = listed.restricted ||
    (listed.embargo !== undefined && embargoActive(listed.embargo));
  const granted = listed.grantedToTokenHolder &&
    context.token !== undefined &&
    carriesToken(context, request, new URL(request.url));
  if (locked && !granted) {
    return json(envelopeError(
      403,
      "Not authorized to access this object via this API endpoint.",
    ));
  }
  const original = new URL(request.url).searchParams.get("format") ===
    "original";
  const file = original ? listed.original ?? listed : listed;
  if (context.faults.redirect) return json(redirectToStore(context, file));
  return contentReply(request, file.bytes, file.contentType);
}

function redirectToStore(
  context: EmulatorContext,
  file: StoredFile,
): Response {
  const location = context.storeOrigin + file.storagePath +
    context.signer.sign(file.storagePath);
  return new Response(null, { status: 303, headers: { location } });
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether `request` carries the token: in its header, or as `key` in the query, as Dataverse reads it too. */
function carriesToken(
  context: EmulatorContext,
  request: Request,
  url: URL,
): boolean {
  return request.headers.get(context.tokenHeader) === context.token ||
    url.searchParams.get("key") === context.token;
}
