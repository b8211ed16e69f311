// GET /downloads/file/:token: an installer from R2, for the signed-in subscriber the link was
// made for, while it is fresh. Range requests resume an interrupted download (206); If-Range
// makes sure a resumed download never mixes two builds; If-None-Match / If-Modified-Since answer
// 304 and If-Match / If-Unmodified-Since 412 against the build's own validators (RFC 9110 13).
import { data } from "react-router";
import type { Route } from "./+types/file";
import { evaluatePreconditions, rangeStillApplies, type Validators } from "~/lib/downloads/conditional";
import { verifyDownloadToken } from "~/lib/downloads/link";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { contentRange, decideRange } from "~/lib/downloads/range";
import { getRelease } from "~/lib/downloads/releases.server";
import { userActivation } from "~/lib/early-access/activation.server";
import { downloadLinkKeys } from "~/lib/keys";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

/** The site's error page with the reason and a way to a fresh link (root ErrorBoundary). */
const refuse = (status: 403 | 404, message: string) => data({ kind: "download-link", message }, { status });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, bucket, env } = app(context);
  const verified = await verifyDownloadToken(downloadLinkKeys(env), params.token);
  if (!verified.ok) throw refuse(403, verified.reason === "expired" ? DOWNLOAD_MESSAGES.linkExpired : DOWNLOAD_MESSAGES.linkInvalid);
  const { user } = getAuth(context);
  if (!user) throw refuse(403, DOWNLOAD_MESSAGES.signInRequired);
  if (user.id !== verified.claim.userId) throw refuse(403, DOWNLOAD_MESSAGES.linkOtherUser);
  if (!(await userActivation(db, user)).activated) throw refuse(403, DOWNLOAD_MESSAGES.subscriptionRequired);
  const release = await getRelease(db, verified.claim.releaseId);
  if (!release) throw refuse(404, DOWNLOAD_MESSAGES.notPublished);

  const size = release.byteSize;
  const validators: Validators = { etag: `"${release.sha256}"`, lastModified: release.publishedAt };
  // A 304 or 412 has no body, and keeps the validators and Cache-Control a 200 would send (RFC 9110 15.4.5).
  const precondition = evaluatePreconditions(conditionalHeaders(request), validators);
  const checked = { ETag: validators.etag, "Last-Modified": new Date(release.publishedAt).toUTCString(), "Cache-Control": "private, no-store" };
  if (precondition !== "proceed") return new Response(null, { status: precondition, headers: checked });
  const range = rangeStillApplies(request.headers.get("If-Range"), validators) ? decideRange(request.headers.get("Range"), size) : ({ kind: "full" } as const);
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "Content-Disposition": `attachment; filename="${release.fileName}"`,
    "Accept-Ranges": "bytes",
    ...checked,
  });
  if (range.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const part = range.kind === "partial" ? range.range : undefined;
  headers.set("Content-Length", String(part ? part.length : size));
  if (part) headers.set("Content-Range", contentRange(part, size));
  const status = part ? 206 : 200;
  if (request.method === "HEAD") return new Response(null, { status, headers });
  const object = await bucket.get(release.r2Key, part ? { range: part } : undefined);
  if (!object) throw refuse(404, DOWNLOAD_MESSAGES.notPublished);
  return new Response(object.body, { status, headers });
}

const conditionalHeaders = (request: Request) => ({
  method: request.method,
  ifMatch: request.headers.get("If-Match"),
  ifNoneMatch: request.headers.get("If-None-Match"),
  ifModifiedSince: request.headers.get("If-Modified-Since"),
  ifUnmodifiedSince: request.headers.get("If-Unmodified-Since"),
});
