// Support messages for admins: open ones newest first (or the closed ones), each closed once by
// an admin, audited. Anyone else gets the 404 of a page that does not exist.
import { data, Form, useNavigation, Link } from "react-router";
import type { Route } from "./+types/support";
import { TabError } from "~/components/dashboard/tab-error";
import { Alert, Button, Card, cx } from "~/components/ui";
import { ZonedTime } from "~/components/format";
import { closeSupportMessage, listSupportMessages } from "~/lib/support/support.server";
import { z } from "~/lib/zod";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm, singleValue } from "~/server/requests.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Support | Modelify");

const PRIORITY_STYLE = { high: "bg-red-50 text-red-700", medium: "bg-amber-50 text-amber-800", low: "bg-slate-100 text-slate-700" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const status = params.get("status") === "closed" ? ("closed" as const) : ("open" as const);
  const messages = await listSupportMessages(app(context).db, status);
  return { status, highlighted: params.get("message")?.slice(0, 64) ?? null, messages };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false, message: read.message }, { status: read.status });
  const parsed = z.object({ intent: z.literal("close"), id: z.string().trim().min(1).max(64) }).safeParse({
    intent: singleValue(read.formData, "intent"),
    id: singleValue(read.formData, "id"),
  });
  if (!parsed.success) return data({ ok: false, message: "That request could not be understood. Please use the buttons on the page." }, { status: 400 });
  const closed = await closeSupportMessage(app(context).db, { id: parsed.data.id, adminId: admin.id });
  return closed ? { ok: true, message: "Message closed." } : data({ ok: false, message: "That message is already closed or does not exist." }, { status: 409 });
}

export default function AdminSupport({ loaderData, actionData }: Route.ComponentProps) {
  const { status, messages, highlighted } = loaderData;
  const navigation = useNavigation();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Support messages</h1>
      <p className="mt-1 text-sm text-slate-600">Messages sent through Contact Support. Reply by e-mail, then close the message here.</p>
      <nav className="mt-6 flex w-fit rounded-lg border border-slate-200 p-0.5 text-sm" aria-label="Message status">
        {(["open", "closed"] as const).map((s) => (
          <Link
            key={s}
            to={s === "open" ? "?" : "?status=closed"}
            aria-current={status === s ? "page" : undefined}
            className={cx("rounded-md px-3 py-1.5 font-medium capitalize", status === s ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100")}
          >
            {s}
          </Link>
        ))}
      </nav>
      {actionData ? (
        <Alert tone={actionData.ok ? "success" : "error"} className="mt-4">
          {actionData.message}
        </Alert>
      ) : null}
      {messages.length === 0 ? (
        <Card className="mt-6 p-8 text-center text-sm text-slate-600">{status === "open" ? "No open messages. Nice." : "No closed messages yet."}</Card>
      ) : (
        <ul className="mt-6 space-y-4" data-testid="support-messages">
          {messages.map((m) => (
            <li key={m.id}>
              <Card className={cx("p-5", highlighted === m.id && "ring-2 ring-brand-500")}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <h2 className="font-semibold text-slate-900">{m.subject}</h2>
                    <p className="mt-0.5 break-all text-sm text-slate-600">
                      {m.name} ·{" "}
                      <a className="font-medium text-brand-700 hover:underline" href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`}>
                        {m.email}
                      </a>{" "}
                      · <ZonedTime ms={m.createdAt} />
                    </p>
                  </div>
                  <span className={cx("rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize", PRIORITY_STYLE[m.priority])}>{m.priority}</span>
                </div>
                <p className="mt-3 whitespace-pre-wrap break-words text-sm leading-6 text-slate-700">{m.message}</p>
                {m.status === "open" ? (
                  <Form method="post" className="mt-4">
                    <input type="hidden" name="intent" value="close" />
                    <input type="hidden" name="id" value={m.id} />
                    <Button type="submit" size="sm" variant="secondary" disabled={navigation.state === "submitting"}>
                      Close message
                    </Button>
                  </Form>
                ) : (
                  <p className="mt-3 text-xs text-slate-500">Closed {m.closedAt ? <ZonedTime ms={m.closedAt} /> : ""}</p>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export const ErrorBoundary = TabError;
