// POST /dashboard/profile/image?kind=avatar|cover: a new profile picture or cover photo for the
// signed-in user (whose id comes from the session only: nothing in the request names the owner).
// Takes a raw image body (the page's XMLHttpRequest, with upload progress) or a multipart form
// with a `file` field (the form without JavaScript). Answers JSON to `Accept: application/json`,
// otherwise redirects back to the Edit Profile modal with the outcome in the query.
import { redirect } from "react-router";
import type { Route } from "./+types/image";
import { imageKindSchema } from "~/lib/profile/image-schemas";
import { type ImageKind, uploadedMessage, type UploadErrorCode, uploadErrorMessage } from "~/lib/profile/images";
import { storeProfileImage } from "~/lib/profile/images.server";
import { imageMaxBytes } from "~/lib/profile/messages";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { postOnly } from "~/server/responses.server";
import { readUploadedFile, type UploadBody } from "~/server/upload-body.server";

const NO_STORE = { "Cache-Control": "no-store" };

export const loader = postOnly;

const STATUS: Record<UploadErrorCode, 400 | 401 | 409 | 413 | 415 | 503> = {
  "too-large": 413,
  "not-an-image": 400,
  "invalid-type": 415,
  storage: 503,
  failed: 503,
  busy: 409,
  "no-profile": 409,
  "sign-in": 401,
};

const READ_REFUSALS: Record<Exclude<UploadBody, { ok: true }>["reason"], { code: UploadErrorCode; status: 400 | 413 | 415 }> = {
  "too-large": { code: "too-large", status: 413 },
  unsupported: { code: "not-an-image", status: 415 },
  "no-file": { code: "not-an-image", status: 400 },
  unreadable: { code: "failed", status: 400 },
};

const failure = (status: number, error: string) => Response.json({ ok: false, error }, { status, headers: NO_STORE });

const wantsJson = (request: Request) => (request.headers.get("Accept") ?? "").includes("application/json");

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return postOnly();
  const json = wantsJson(request);
  const { user } = getAuth(context);
  if (!user) return json ? failure(401, uploadErrorMessage("sign-in", "avatar")) : redirect("/auth", 303);

  const kind = imageKindSchema.safeParse(new URL(request.url).searchParams.get("kind"));
  // Only a hand-made request names another kind: the page's forms always name theirs.
  if (!kind.success) return failure(400, "Unknown picture: use kind=avatar or kind=cover.");

  const refuse = (code: UploadErrorCode, status: number = STATUS[code]) =>
    json ? failure(status, uploadErrorMessage(code, kind.data)) : redirect(`/dashboard/profile?edit=1&uploadError=${code}&kind=${kind.data}`, 303);

  const { db, bucket } = app(context);
  // A Worker deployed without its R2 binding: say so rather than fail.
  if (!(bucket as R2Bucket | undefined)) return refuse("storage");
  const body = await readUploadedFile(request, imageMaxBytes(kind.data));
  if (!body.ok) {
    const refusal = READ_REFUSALS[body.reason];
    return refuse(refusal.code, refusal.status);
  }
  const stored = await storeProfileImage({ bucket, db }, { userId: user.id, kind: kind.data, bytes: body.bytes });
  if (!stored.ok) return refuse(stored.code);
  return json ? uploaded(kind.data, stored.url) : redirect(`/dashboard/profile?edit=1&uploaded=${kind.data}`, 303);
}

const uploaded = (kind: ImageKind, url: string) => Response.json({ ok: true, url, message: uploadedMessage(kind) }, { headers: NO_STORE });
