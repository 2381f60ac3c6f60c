/**
 * The object-store origin: serves file bytes to GETs with a valid,
 * unexpired pre-signed URL.
 *
 * @module
 */

import { contentReply } from "./content.ts";
import type { EmulatorContext } from "./context.ts";
import { type Answered, answerWithRules } from "./fault_answer.ts";
import { clientGone, xmlError } from "./replies.ts";
import { enterInFlight } from "./counters.ts";

/** The request handler of the object-store origin. */
export function storeHandler(
  context: EmulatorContext,
): (request: Request) => Promise<Response> {
  const { counters, faults, dataset, tokenHeader } = context;
  return async (request) => {
    const isGet = request.method === "GET";
    counters.storeRequests++;
    const keyed = new URL(request.url).searchParams.has("key");
    if (request.headers.has(tokenHeader) || keyed) {
      counters.storeRequestsWithToken++;
    }
    const leave = isGet ? enterInFlight(counters, "storeGet") : undefined;
    try {
      if (await context.pause(request, faults.latencyMs)) return clientGone();
      const { response, sent } = await answerWithRules(
        context,
        "store",
        request,
        isGet ? ["content"] : [],
        () => answer(request, isGet),
      );
      counters.storeBytes += sent;
      return response;
    } finally {
      leave?.();
    }
  };

  function answer(request: Request, isGet: boolean): Answered {
    const url = new URL(request.url);
    const verdict = isGet ? context.signer.verify(url) : "invalid";
    if (verdict === "invalid") {
      return refused(xmlError(
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
      ));
    }
    if (verdict === "expired") {
      return refused(xmlError(403, "AccessDenied", "Request has expired"));
    }
    const file = dataset.filesByStoragePath.get(url.pathname);
    if (!file) {
      return refused(
        xmlError(404, "NoSuchKey", "The specified key does not exist."),
      );
    }
    return contentReply(request, file.bytes, file.contentType);
  }
}

function refused(response: Response): Answered {
  return { response, sent: 0 };
}
