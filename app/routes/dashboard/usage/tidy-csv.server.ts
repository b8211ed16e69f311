// What the tidy CSV routes share (issue 49): the signed-in account's own usage only, the range and
// filter of the usage pages' URLs (400 with the reason when it cannot be read), and a file named by
// its days.
import type { SessionUser } from "~/lib/auth/session.server";
import type { UsageView } from "~/lib/usage/usage-range";
import { parseUsageView } from "~/lib/usage/usage-range.server";

export type CsvFile = "requests" | "days" | "models";

/** The view a CSV URL asks for, or the 400 that says what is wrong with it. */
export function csvView(request: Request, user: SessionUser, now: number): { ok: true; view: UsageView } | { ok: false; response: Response } {
  const parsed = parseUsageView(new URL(request.url).searchParams, { now, zone: user.profile.timeZone, createdAt: user.createdAt, fallback: "30d" });
  if (parsed.ok) return parsed;
  return {
    ok: false,
    response: new Response(`${parsed.message}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    }),
  };
}

export function csvResponse(body: BodyInit, file: CsvFile, view: UsageView): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="modelify-${file}-${view.from}-to-${view.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
