// POST /dashboard/admin/releases/{create,part,complete,abort}: the admin upload of a build, as a
// multipart upload to R2 (lib/downloads/upload.server.ts). Admins only: anyone else gets the 404
// of a page that does not exist, before anything is read or written. Answers JSON:
// { error } with a 4xx for anything malformed or refused.
import type { Route } from "./+types/releases";
import { abortUpload, completeUpload, createUpload, type Refusal, uploadPart } from "~/lib/downloads/upload.server";
import { completeUploadSchema, createUploadSchema, partQuerySchema, uploadRefSchema } from "~/lib/downloads/upload-schemas";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readJson } from "~/server/requests.server";
import { jsonError, methodNotAllowed } from "~/server/responses.server";

const NO_STORE = { "Cache-Control": "no-store" };

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return methodNotAllowed("POST");
}

const invalid = (error: z.ZodError) => {
  const issue = error.issues[0];
  return jsonError(400, issue ? issue.message : "Invalid request.", NO_STORE);
};

function answer<T extends { ok: true }>(result: T | Refusal): Response {
  if (!result.ok) return jsonError(result.status, result.message, NO_STORE);
  const { ok: _ok, ...body } = result;
  return Response.json(body, { headers: NO_STORE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const { db, bucket } = app(context);
  try {
    switch (params.step) {
      case "create": {
        const parsed = createUploadSchema.safeParse(await readJson(request));
        return parsed.success ? answer(await createUpload(db, bucket, parsed.data)) : invalid(parsed.error);
      }
      case "part": {
        const parsed = partQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
        if (!parsed.success) return invalid(parsed.error);
        const declared = request.headers.get("Content-Length");
        const length = declared !== null && /^\d{1,12}$/.test(declared) ? Number(declared) : null;
        return answer(await uploadPart(bucket, parsed.data, request.body, length));
      }
      case "complete": {
        const parsed = completeUploadSchema.safeParse(await readJson(request, 64 * 1024));
        return parsed.success ? answer(await completeUpload(db, bucket, parsed.data, admin.id)) : invalid(parsed.error);
      }
      case "abort": {
        const parsed = uploadRefSchema.safeParse(await readJson(request));
        return parsed.success ? answer(await abortUpload(bucket, parsed.data)) : invalid(parsed.error);
      }
      default:
        return jsonError(404, "Not found", NO_STORE);
    }
  } catch (error) {
    // readJson answers a malformed body with a JSON Response.
    if (error instanceof Response) return error;
    throw error;
  }
}
