/**
 * The repository origin: collection contents, dataset and version listings,
 * and the file-access endpoint, all under `/api`.
 *
 * @module
 */

import { contentReply } from "./content.ts";
import type { EmulatorContext } from "./context.ts";
import { enterInFlight } from "./counters.ts";
import { findVersion, type StoredFile } from "./dataset.ts";
import { type FailureRule, takeCountdown, takeFailure } from "./faults.ts";
import {
  clientGone,
  envelopeError,
  failureReply,
  jsonReply,
} from "./replies.ts";

type Route =
  | { kind: "collection"; alias: string }
  | { kind: "listing"; version?: string }
  | { kind: "access"; id: string }
  | { kind: "unknown" };

/**
 * The request handler of the repository origin.
 *
 * @example
 * ```ts
 * import { repositoryHandler } from "./repository.ts";
 * import type { EmulatorContext } from "./context.ts";
 * function serveRepository(context: EmulatorContext): Deno.HttpServer {
 *   return Deno.serve({ port: 0, onListen() {} }, repositoryHandler(context));
 * }
 * ```
 */
export function repositoryHandler(
  context: EmulatorContext,
): (request: Request) => Promise<Response> {
  const { counters, faults } = context;
  return async (request) => {
    const url = new URL(request.url);
    const route = matchRoute(request.method, url.pathname);
    const targets: FailureRule["target"][] = ["repo"];
    let leaveHead: (() => void) | undefined;
    if (route.kind === "collection") counters.collectionCalls++;
    if (route.kind === "listing") {
      counters.listingCalls++;
      targets.push("listing");
    }
    if (route.kind === "access" && request.method === "HEAD") {
      leaveHead = enterInFlight(counters, "head");
      targets.push("head");
    }
    if (route.kind === "access" && request.method === "GET") {
      counters.accessGets++;
      targets.push("content");
    }
    try {
      const left = await context.pause(request, faults.latencyMs) ||
        (leaveHead !== undefined &&
          await context.pause(request, faults.headDelayMs));
      if (left) return clientGone();
      const rule = takeFailure(faults, targets, url.pathname);
      if (rule) {
        counters.failuresInjected++;
        return failureReply(rule, "repo", request.headers.get("x-repo-key"));
      }
      if (
        context.token !== undefined &&
        request.headers.get("x-repo-key") !== context.token
      ) {
        return envelopeError(401, "Bad API key");
      }
      switch (route.kind) {
        case "collection":
          return collection(context, route.alias);
        case "listing":
          return listing(context, url, route.version);
        case "access":
          return access(context, request, route.id);
        case "unknown":
          return envelopeError(
            404,
            "API endpoint does not exist on this server.",
          );
      }
    } finally {
      leaveHead?.();
    }
  };
}

function matchRoute(method: string, path: string): Route {
  let match: RegExpExecArray | null;
  if (method === "GET") {
    if ((match = /^\/api\/repos\/([^/]+)\/contents\/?$/.exec(path))) {
      return { kind: "collection", alias: decode(match[1]) };
    }
    if (/^\/api\/datasets\/:persistentId\/?$/.test(path)) {
      return { kind: "listing" };
    }
    match = /^\/api\/datasets\/:persistentId\/versions\/([^/]+)\/?$/.exec(path);
    if (match) return { kind: "listing", version: decode(match[1]) };
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
  return json(context, context.dataset.collectionJson);
}

function listing(
  context: EmulatorContext,
  url: URL,
  versionName: string | undefined,
): Response {
  const { dataset } = context;
  const pid = url.searchParams.get("persistentId") ?? "";
  if (pid !== dataset.pid) {
    return envelopeError(404, `Dataset with Persistent ID ${pid} not found.`);
  }
  if (versionName === undefined) return json(context, dataset.datasetJson);
  const version = findVersion(dataset, versionName);
  if (!version) {
    return envelopeError(
      404,
      `Dataset version ${versionName} of dataset ${pid} not found`,
    );
  }
  return json(context, version.json);
}

function access(
  context: EmulatorContext,
  request: Request,
  id: string,
): Response {
  const file = /^\d+$/.test(id)
    ? context.dataset.filesById.get(Number(id))
    : undefined;
  if (!file) return envelopeError(404, "File not found for given id.");
  if (file.restricted) {
    return envelopeError(
      403,
      "Not authorized to access this object via this API endpoint.",
    );
  }
  if (context.faults.redirect) return redirectToStore(context, file);
  const { response, sent } = contentReply(
    request,
    file.bytes,
    file.contentType,
    context.faults,
    context.closed,
  );
  context.counters.accessBytes += sent;
  return response;
}

function redirectToStore(
  context: EmulatorContext,
  file: StoredFile,
): Response {
  const { location, redirectStatus } = context.faults;
  const headers = new Headers();
  if (location === undefined) {
    headers.set(
      "location",
      context.storeOrigin + file.storagePath +
        context.signer.sign(file.storagePath),
    );
  } else if (location !== null) {
    headers.set("location", location);
  }
  return new Response(null, { status: redirectStatus, headers });
}

function json(
  context: EmulatorContext,
  body: Uint8Array<ArrayBuffer>,
): Response {
  return jsonReply(
    takeCountdown(context.faults, "malformedJson")
      ? body.subarray(0, Math.floor(body.length / 2))
      : body,
  );
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
