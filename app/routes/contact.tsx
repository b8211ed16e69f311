// /contact: Contact Support as a page (the modal's no-JavaScript home, and the modal's action).
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/contact";
import { AuthShell } from "~/components/auth-shell";
import { ContactAside, type ContactActionData, ContactForm } from "~/components/site/contact-form";
import { filledHoneypot } from "~/lib/honeypot";
import { SUPPORT_MESSAGES as M } from "~/lib/support/messages";
import { sendSupportMessage } from "~/lib/support/support.server";
import { supportMessageSchema } from "~/lib/support/validation";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { pageMeta } from "~/lib/site/meta";
import { log } from "~/lib/log/log.server";

export const meta = () => pageMeta("Contact Support | Modelify");

export function loader({ context }: Route.LoaderArgs) {
  const { user } = getAuth(context);
  return {
    inbox: app(context).env.SUPPORT_INBOX,
    defaults: user ? { name: [user.firstName, user.lastName].filter(Boolean).join(" "), email: user.email } : undefined,
  };
}

const reply = (body: ContactActionData, init?: ResponseInit) => data<ContactActionData>(body, init);

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return reply({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: supportMessageSchema });
  if (submission.status !== "success") return reply({ result: submission.reply() }, { status: 400 });
  const done = () => reply({ result: submission.reply({ resetForm: true }), sent: { message: M.sent } });
  if (filledHoneypot(read.formData)) return done();
  const { db, queue, origin, ip, env } = app(context);
  try {
    const { user } = getAuth(context);
    const sender = user ? { id: user.id, email: user.email } : null;
    const result = await sendSupportMessage({ db, queue, origin, ip, inbox: env.SUPPORT_INBOX }, submission.value, sender);
    if (!result.ok) {
      return reply({ result: submission.reply({ formErrors: [M.tooMany] }) }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
    }
    return done();
  } catch (error) {
    log.error("support_message_failed", {}, error);
    return reply({ result: submission.reply({ formErrors: [M.unexpected] }) }, { status: 503 });
  }
}

export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AuthShell wide title="Contact Support" subtitle="Tell us what's going on and we'll get back to you by e-mail.">
      <ContactForm onPage answer={actionData ?? null} defaults={loaderData.defaults} />
      <div className="mt-8 border-t border-slate-100 pt-6">
        <ContactAside inbox={loaderData.inbox} headingLevel={2} />
      </div>
    </AuthShell>
  );
}
