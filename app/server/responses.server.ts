// Answers the routes share: the API's JSON errors (405 with Allow, OAuth's shape), a form-level
// error for conform, Retry-After on a 429 and its way past React Router's headers.
import type { HeadersFunction } from "react-router";

export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers });
}

/** 405 with the methods the route does take (Allow). */
export const methodNotAllowed = (allow: "POST" | "GET" = "POST") => jsonError(405, "Method not allowed", { Allow: allow === "GET" ? "GET, HEAD" : allow });
export const getOnly = () => methodNotAllowed("GET");
export const postOnly = () => methodNotAllowed("POST");

/**
 * React Router runs a route's loader for OPTIONS as it does for GET: the API's reading routes call
 * this first, so OPTIONS gets the 405 with Allow that every other method they do not take gets
 * (as the OpenAPI document says), not the signed-in account's data.
 */
export function refuseOptions(request: Request): void {
  if (request.method === "OPTIONS") throw getOnly();
}

// Methods the site answers; anything else (PROPFIND, TRACE, …) stops in the Worker entry with a
// plain 405 instead of reaching the router.
export const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function unknownMethod(request: Request): Response {
  const headers = { Allow: "GET, HEAD, POST" };
  return new URL(request.url).pathname.startsWith("/api/")
    ? Response.json({ error: "Method not allowed" }, { status: 405, headers })
    : new Response("Method not allowed", { status: 405, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

/** A 429's Retry-After (RFC 9110 10.2.3): whole seconds, rounded up, at least 1. */
export function retryAfter(seconds: number): { "Retry-After": string } {
  return { "Retry-After": String(Math.max(1, Math.ceil(seconds))) };
}

/**
 * The `headers` export of a page whose loader or action can answer 429: React Router passes only
 * a loader's or action's Set-Cookie on to the answer, so without this its Retry-After is lost.
 */
export const keepRetryAfter: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const wait = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  if (wait) headers.set("Retry-After", wait);
  return headers;
};

/** A conform SubmissionResult that carries one form-level error. */
export function formErrorResult(message: string) {
  return { status: "error" as const, error: { "": [message] } };
}

/** An OAuth error (RFC 6749 5.2): never cached (Pragma for HTTP/1.0 caches, as RFC 6749 5.1 asks of tokens). */
export function oauthError(status: number, error: string, description: string, extra: Record<string, unknown> = {}, headers: HeadersInit = {}): Response {
  return Response.json(
    { error, error_description: description, ...extra },
    { status, headers: { "Cache-Control": "no-store", Pragma: "no-cache", ...headers } },
  );
}
