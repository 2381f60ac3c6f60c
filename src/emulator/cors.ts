/**
 * Cross-origin access to the emulator, so that a page served from anywhere
 * can read through it: it is a local test server, so any origin is allowed.
 *
 * @module
 */

/** Headers a page may read from an answer. */
const EXPOSED = "Content-Range, Content-Length, Location";

/**
 * `handler` with CORS: a preflight (`OPTIONS`) is answered 204 at once,
 * allowing `GET` and `HEAD` with `Range`, `Accept` and the token header;
 * every other answer carries `Access-Control-Allow-Origin: *` and exposes
 * `Content-Range`, `Content-Length` and `Location`.
 *
 * @param handler the origin's own request handler
 * @param tokenHeader the header that carries the API token
 */
export function withCors(
  handler: (request: Request) => Promise<Response>,
  tokenHeader: string,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "GET, HEAD, OPTIONS",
          "access-control-allow-headers": `Range, Accept, ${tokenHeader}`,
          "access-control-max-age": "600",
        },
      });
    }
    const response = await handler(request);
    const headers = new Headers(response.headers);
    headers.set("access-control-allow-origin", "*");
    headers.set("access-control-expose-headers", EXPOSED);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
