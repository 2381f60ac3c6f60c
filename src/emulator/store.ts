/**
 * The object-store origin: serves file bytes to GETs with a valid,
 * unexpired pre-signed URL.
 *
 * @module
 */

import { contentReply } from "./content.ts";
import type { EmulatorContext } from "./context.ts";
import { type FailureRule, takeFailure } from "./faults.ts";
import { clientGone, failureReply, xmlError } from "./replies.ts";
import { enterInFlight } from "./counters.ts";

/** The request handler of the object-store origin. */
export function storeHandler(
  context: EmulatorContext,
): (request: Request) => Promise<Response> {
  const { counters, faults, dataset, tokenHeader } = context;
  return async (request) => {
    const url = new URL(request.url);
    const isGet = request.method === "GET";
    const targets: FailureRule["target"][] = isGet
      ? ["store", "content"]
      : ["store"];
    counters.storeRequests++;
    if (request.headers.has(tokenHeader)) counters.storeRequestsWithToken++;
    const leave = isGet ? enterInFlight(counters, "storeGet") : undefined;
    try {
      return await answer(request, url, isGet, targets);
    } finally {
      leave?.();
    }
  };

  async function answer(
    request: Request,
    url: URL,
    isGet: boolean,
    targets: FailureRule["target"][],
  ): Promise<Response> {
    if (await context.pause(request, faults.latencyMs)) return clientGone();
    const rule = takeFailure(faults, targets, url.pathname);
    if (rule) {
      counters.failuresInjected++;
      return failureReply(
        rule,
        "store",
        request.headers.get(tokenHeader),
        request.url,
      );
    }
    const verdict = isGet ? context.signer.verify(url) : "invalid";
    if (verdict === "invalid") {
      return xmlError(
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
      );
    }
    if (verdict === "expired") {
      return xmlError(403, "AccessDenied", "Request has expired");
    }
    const file = dataset.filesByStoragePath.get(url.pathname);
    if (!file) {
      return xmlError(404, "NoSuchKey", "The specified key does not exist.");
    }
    const { response, sent } = contentReply(
      request,
      file.bytes,
      file.contentType,
      faults,
      context.closed,
    );
    counters.storeBytes += sent;
    return response;
  }
}
