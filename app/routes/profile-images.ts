// GET/HEAD /profile-images/:userId/:file: a profile picture or cover photo from R2, for its owner
// (and admins). Anyone else, signed in or not, gets the same 404 as for a picture that does not
// exist, so nobody learns whether another account has one.
import type { Route } from "./+types/profile-images";
import { PROFILE_IMAGES } from "~/lib/constants";
import { imageUserIdSchema } from "~/lib/profile/image-schemas";
import { readProfileImage } from "~/lib/profile/images.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

// The URL carries a content version, so an hour in the browser's own cache never shows an old
// picture; private, because it belongs to a signed-in account (no shared cache may keep it).
const CACHE_CONTROL = `private, max-age=${PROFILE_IMAGES.cacheSeconds}`;

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = getAuth(context);
  if (!user || !imageUserIdSchema.safeParse(params.userId).success) return notFound();
  if (user.id !== params.userId && user.role !== "admin") return notFound();

  const head = request.method === "HEAD";
  const read = await readProfileImage(app(context).bucket, params.userId, params.file, { ifNoneMatch: request.headers.get("If-None-Match"), head });
  if (read.status === 404) return notFound();
  const headers = new Headers({ ETag: read.etag, "Cache-Control": CACHE_CONTROL });
  if (read.status === 304) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", read.contentType);
  headers.set("Content-Length", String(read.size));
  headers.set("Last-Modified", read.uploaded.toUTCString());
  headers.set("Content-Disposition", "inline");
  headers.set("X-Content-Type-Options", "nosniff");
  // Only our own pages may embed it.
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(head ? null : read.body, { status: 200, headers });
}
