// POST /dashboard/admin/early-access/keys.csv: creates N unassigned activation keys and answers
// with them as a CSV download. Plaintext keys are never stored, so this answer is the only place
// they ever appear: it is not cached anywhere. Admins only (anyone else: 404); the _web layout has
// already refused cross-origin posts.
import type { Route } from "./+types/keys.csv";
import { EARLY_ACCESS } from "~/lib/constants";
import { createUnassignedKeys, keysCsv } from "~/lib/early-access/admin.server";
import { z } from "~/lib/zod";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { jsonError, methodNotAllowed } from "~/server/responses.server";

const NO_STORE = { "Cache-Control": "private, no-store" };
const formSchema = z.object({ count: z.coerce.number().int().min(1).max(EARLY_ACCESS.bulkMax) });

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return methodNotAllowed("POST");
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const read = await readForm(request);
  if (!read.ok) return jsonError(read.status, read.message, NO_STORE);
  const parsed = formSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) return jsonError(400, `Enter a number of keys from 1 to ${EARLY_ACCESS.bulkMax}.`, NO_STORE);
  const created = await createUnassignedKeys(app(context).db, { adminId: admin.id, count: parsed.data.count });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(keysCsv(created), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="modelify-early-access-keys-${stamp}.csv"`,
      ...NO_STORE,
    },
  });
}
