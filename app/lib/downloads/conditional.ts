// Conditional requests for installer downloads (RFC 9110 13): an origin server must evaluate them.
// The validators are the build's: its ETag (the SHA-256 of the file, strong) and its publication
// time. Evaluated in the RFC's order (13.2.2), after the link and the account were checked (13.2.1:
// a request that would fail anyway is not made conditional), and before R2 is read.

export type Validators = { etag: string; lastModified: number };

export type ConditionalHeaders = {
  method: string;
  ifMatch: string | null;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  ifUnmodifiedSince: string | null;
};

/** What the preconditions decide: serve as usual, 304 Not Modified, or 412 Precondition Failed. */
export type Precondition = "proceed" | 304 | 412;

/** The entity tags of an If-Match / If-None-Match list, "*" standing alone; null when the header is malformed. */
function entityTags(header: string): { any: true } | { any: false; tags: Array<{ weak: boolean; opaque: string }> } | null {
  if (header.trim() === "*") return { any: true };
  const tags: Array<{ weak: boolean; opaque: string }> = [];
  for (const item of header.split(",")) {
    const trimmed = item.trim();
    if (trimmed === "") continue;
    const match = /^(W\/)?("[\x21\x23-\x7E\x80-\xFF]*")$/.exec(trimmed);
    if (!match) return null;
    tags.push({ weak: Boolean(match[1]), opaque: match[2]! });
  }
  return { any: false, tags };
}

/** If-Match compares strongly (13.1.1): a weak tag never matches. A malformed list matches nothing. */
function strongMatch(header: string, etag: string): boolean {
  const list = entityTags(header);
  if (!list) return false;
  return list.any || list.tags.some((tag) => !tag.weak && tag.opaque === etag);
}

/** If-None-Match compares weakly (13.1.2): W/"x" matches "x". A malformed list matches nothing. */
function weakMatch(header: string, etag: string): boolean {
  const list = entityTags(header);
  if (!list) return false;
  return list.any || list.tags.some((tag) => tag.opaque === etag);
}

/** An HTTP-date in milliseconds, or null when it is not a date (the header is then ignored, 13.1.3/13.1.4). */
function httpDate(header: string): number | null {
  const time = Date.parse(header);
  return Number.isFinite(time) ? time : null;
}

/** HTTP dates have whole seconds: the publication time as Last-Modified says it. */
const toSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

export function evaluatePreconditions(request: ConditionalHeaders, validators: Validators): Precondition {
  const lastModified = toSeconds(validators.lastModified);
  if (request.ifMatch !== null) {
    if (!strongMatch(request.ifMatch, validators.etag)) return 412;
  } else if (request.ifUnmodifiedSince !== null) {
    const since = httpDate(request.ifUnmodifiedSince);
    if (since !== null && lastModified > since) return 412;
  }
  const read = request.method === "GET" || request.method === "HEAD";
  if (request.ifNoneMatch !== null) {
    if (weakMatch(request.ifNoneMatch, validators.etag)) return read ? 304 : 412;
  } else if (read && request.ifModifiedSince !== null) {
    const since = httpDate(request.ifModifiedSince);
    if (since !== null && lastModified <= since) return 304;
  }
  return "proceed";
}

/**
 * If-Range (13.1.5): a Range applies only while the file is the one the client has. An entity tag
 * must match strongly; a date must be exactly the Last-Modified (a strong validator here: a build
 * never changes once published).
 */
export function rangeStillApplies(ifRange: string | null, validators: Validators): boolean {
  if (ifRange === null) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith("W/")) return value === validators.etag;
  const date = httpDate(value);
  return date !== null && date === toSeconds(validators.lastModified);
}
