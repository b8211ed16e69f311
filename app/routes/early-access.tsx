// /early-access: the waitlist of the early-access programme. A conform + zod form that works
// without JavaScript; the server decides the priority score and whether the address is new.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useActionData, useNavigation, type ShouldRevalidateFunctionArgs, Link } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import type { Route } from "./+types/early-access";
import { CHECKED_ON_THE_SERVER, Field } from "~/components/forms";
import { SiteFooter } from "~/components/site-footer";
import { Alert, Card, CheckIcon, Honeypot, SubmitButton } from "~/components/ui";
import { EARLY_ACCESS } from "~/lib/constants";
import { WAITLIST_MESSAGES as M } from "~/lib/early-access/messages";
import { waitlistSchema } from "~/lib/early-access/waitlist";
import { joinWaitlist } from "~/lib/early-access/waitlist.server";
import { filledHoneypot } from "~/lib/honeypot";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { log } from "~/lib/log/log.server";

export const meta = () => [
  { title: "Early Access | Modelify" },
  { name: "description", content: "Join the Modelify waitlist and get an activation key for early access to the desktop app." },
];

type ActionData = { result: SubmissionResult<string[]>; joined?: { message: string; email: string } };
const reply = (body: ActionData, init?: ResponseInit) => data<ActionData>(body, init);

export function loader({ request }: Route.LoaderArgs) {
  const ref = new URL(request.url).searchParams.get("ref") ?? "";
  return { ref: /^[A-Za-z0-9_.-]{1,64}$/.test(ref) ? ref : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return reply({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: waitlistSchema });
  if (submission.status !== "success") return reply({ result: submission.reply() }, { status: 400 });
  const done = (message: string) => reply({ result: submission.reply({ resetForm: true }), joined: { message, email: submission.value.email } });
  if (filledHoneypot(read.formData)) return done(M.joined);

  const { db, queue, origin, ip } = app(context);
  try {
    const outcome = await joinWaitlist({ db, queue, origin, ip }, submission.value);
    if (outcome.status === "limited") {
      return reply(
        { result: submission.reply({ formErrors: [M.tooManyJoins] }) },
        { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
      );
    }
    return done(outcome.status === "joined" ? M.joined : M.alreadyJoined);
  } catch (error) {
    log.error("waitlist_join_failed", {}, error);
    return reply({ result: submission.reply({ formErrors: [M.unexpected] }) }, { status: 503 });
  }
}

// An action's own headers (Retry-After) reach the response only through this export.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

const STEPS = [
  { title: "Join the waitlist", text: "Tell us who you are. It takes ten seconds and costs nothing." },
  {
    title: "Get your key",
    text: `When your place comes up we e-mail you a ${EARLY_ACCESS.keyLength}-character activation key, valid for ${EARLY_ACCESS.keyValidityDays} days.`,
  },
  { title: "Start building", text: `Redeem it in your dashboard for ${EARLY_ACCESS.accessDays} days of the desktop app, every model and agent included.` },
];

export default function EarlyAccess({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28 sm:px-6 sm:pt-32">
        <div className="mx-auto grid max-w-6xl items-start gap-12 lg:grid-cols-2">
          <section aria-labelledby="early-access-title">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Early access programme</p>
            <h1 id="early-access-title" className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              Be among the first to use Modelify
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-8 text-slate-600">
              Every AI model and specialised agent in one desktop app, with your own API keys. We are letting people in a few at a time.
            </p>
            <ol className="mt-10 space-y-6">
              {STEPS.map((step, i) => (
                <li key={step.title} className="flex gap-4">
                  <span
                    className="flex h-9 w-9 flex-none items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white"
                    aria-hidden="true"
                  >
                    {i + 1}
                  </span>
                  <div>
                    <h2 className="font-semibold text-slate-900">{step.title}</h2>
                    <p className="mt-1 text-sm leading-6 text-slate-600">{step.text}</p>
                  </div>
                </li>
              ))}
            </ol>
            <p className="mt-10 text-sm text-slate-600">
              Already have a key?{" "}
              <Link to="/activate" className="rounded font-semibold text-brand-700 hover:text-brand-800">
                Redeem it here
              </Link>
            </p>
          </section>
          <Card className="p-6 sm:p-8">
            {actionData?.joined ? <Joined message={actionData.joined.message} email={actionData.joined.email} /> : <WaitlistForm refCode={loaderData.ref} />}
          </Card>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}

function Joined({ message, email }: { message: string; email: string }) {
  return (
    <div role="status" className="text-center">
      <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50">
        <CheckIcon className="h-6 w-6 text-emerald-600" bold />
      </span>
      <h2 className="mt-4 text-xl font-semibold text-slate-900">Thank you!</h2>
      <p className="mt-2 text-sm leading-6 text-slate-700">{message}</p>
      <p className="mt-4 text-sm text-slate-500">
        We'll write to <span className="font-medium text-slate-700">{email}</span>. Meanwhile you can{" "}
        <Link to="/auth?mode=signup" className="rounded font-semibold text-brand-700 hover:text-brand-800">
          create your account
        </Link>
        , so your key works the moment it arrives.
      </p>
    </div>
  );
}

function WaitlistForm({ refCode }: { refCode: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const actionData = useActionData<ActionData>();
  const [form, fields] = useForm<z.input<typeof waitlistSchema>, z.output<typeof waitlistSchema>>({
    id: "waitlist",
    // The server's answer: its field errors without JavaScript, and its form-level refusals (the per-IP cap).
    lastResult: actionData?.result,
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" aria-labelledby="waitlist-title">
      <div>
        <h2 id="waitlist-title" className="text-xl font-semibold text-slate-900">
          Join the waitlist
        </h2>
        <p className="mt-1 text-sm text-slate-600">We'll only use your details to contact you about early access.</p>
      </div>
      {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
      <Field
        labelProps={{ children: "Email" }}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", placeholder: "you@example.com" }}
        errors={fields.email.errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: "First name" }}
          inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
          errors={fields.firstName.errors}
        />
        <Field
          labelProps={{ children: "Last name" }}
          inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
          errors={fields.lastName.errors}
        />
      </div>
      <Field
        labelProps={{ children: "Company" }}
        inputProps={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "organization", placeholder: "Optional" }}
        errors={fields.company.errors}
        hint="Optional. Teams are invited a little sooner."
      />
      {refCode ? <input type="hidden" name="ref" value={refCode} /> : null}
      <Honeypot id="waitlist-website" />
      <SubmitButton pending={pending} idle="Join the Waitlist" busy="Joining..." />
      <p className="text-center text-xs text-slate-500">Joining twice with one address changes nothing. No spam, ever.</p>
    </Form>
  );
}
