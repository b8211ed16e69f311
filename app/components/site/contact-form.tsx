// The Contact Support form, in the modal (?modal=contact) and on /contact. It posts to /contact:
// through a fetcher where it is a modal, as the page's own form on /contact, and as a plain form
// without JavaScript. After a message is sent the confirmation shows for SUPPORT.successShownMs,
// then the form comes back empty (ADR 0013).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import type { z } from "zod";
import { SUPPORT } from "~/lib/constants";
import type { supportMessageSchema } from "~/lib/support/validation";
import { CHECKED_ON_THE_SERVER, Field, SelectField, TextareaField } from "../forms";
import { Alert, CheckIcon, Honeypot, SubmitButton } from "../ui";

export type ContactActionData = { result: SubmissionResult<string[]>; sent?: { message: string } };

/**
 * The confirmation of a sent message, shown for SUPPORT.successShownMs. `shownFor` is the answer
 * whose confirmation has run its time: a new answer shows it again.
 */
function useSentConfirmation(data: ContactActionData | null) {
  const [shownFor, setShownFor] = useState<ContactActionData | null>(null);
  const sent = data?.sent && shownFor !== data ? data.sent : null;
  useEffect(() => {
    if (!data?.sent) return;
    const timer = window.setTimeout(() => setShownFor(data), SUPPORT.successShownMs);
    return () => window.clearTimeout(timer);
  }, [data]);
  return { sent, shownFor };
}

function ContactSent({ message }: { message: string }) {
  return (
    <div role="status" className="py-6 text-center" data-testid="contact-sent">
      <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50">
        <CheckIcon className="h-6 w-6 text-emerald-600" bold />
      </span>
      <p className="mt-4 font-semibold text-slate-900">{message}</p>
      <p className="mt-1 text-sm text-slate-600">A confirmation is on its way to your inbox.</p>
    </div>
  );
}

export function ContactForm({
  onPage,
  answer,
  defaults,
}: {
  onPage?: boolean;
  answer?: ContactActionData | null;
  defaults?: { name?: string; email?: string };
}) {
  const fetcher = useFetcher<ContactActionData>({ key: "contact-support" });
  const navigation = useNavigation();
  const data = (onPage ? null : fetcher.data) ?? answer ?? null;
  const pending = onPage ? navigation.state === "submitting" && navigation.formAction === "/contact" : fetcher.state !== "idle";
  const { sent, shownFor } = useSentConfirmation(data);

  const [form, fields] = useForm<z.input<typeof supportMessageSchema>, z.output<typeof supportMessageSchema>>({
    id: sent ? "contact-sent" : `contact-${shownFor ? "again" : "first"}`,
    lastResult: data?.sent ? undefined : data?.result,
    defaultValue: { name: defaults?.name ?? "", email: defaults?.email ?? "", priority: SUPPORT.defaultPriority },
    ...CHECKED_ON_THE_SERVER,
  });

  if (sent) return <ContactSent message={sent.message} />;

  const PostForm = onPage ? Form : fetcher.Form;
  const star = (
    <span className="text-red-600" aria-hidden="true">
      *
    </span>
  );
  return (
    <PostForm method="post" action="/contact" {...getFormProps(form)} className="space-y-4">
      {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: <>Name {star}</> }}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
          errors={fields.name.errors}
        />
        <Field
          labelProps={{ children: <>Email {star}</> }}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", placeholder: "you@example.com" }}
          errors={fields.email.errors}
        />
      </div>
      <Field labelProps={{ children: <>Subject {star}</> }} inputProps={getInputProps(fields.subject, { type: "text" })} errors={fields.subject.errors} />
      <SelectField labelProps={{ children: "Priority" }} selectProps={getSelectProps(fields.priority)} errors={fields.priority.errors}>
        <option value="low">Low</option>
        <option value="medium">Medium</option>
        <option value="high">High</option>
      </SelectField>
      <TextareaField
        labelProps={{ children: <>Message {star}</> }}
        textareaProps={{ ...getTextareaProps(fields.message), rows: 5 }}
        errors={fields.message.errors}
      />
      <Honeypot id="contact-website" />
      <SubmitButton pending={pending} idle="Send Message" busy="Sending..." />
    </PostForm>
  );
}

/** The side information beside the form; its headings are <h3> under a dialog's <h2> title, <h2> under the /contact page's <h1>. */
export function ContactAside({ inbox, headingLevel = 3 }: { inbox: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <aside className="space-y-4 text-sm text-slate-600">
      <div>
        <Heading className="font-semibold text-slate-900">Response time</Heading>
        <p className="mt-1">We answer every message within {SUPPORT.responseHours} hours, usually much sooner.</p>
      </div>
      <div>
        <Heading className="font-semibold text-slate-900">E-mail</Heading>
        <a className="mt-1 inline-block rounded font-medium text-brand-700 hover:text-brand-800" href={`mailto:${inbox}`}>
          {inbox}
        </a>
      </div>
      <div>
        <Heading className="font-semibold text-slate-900">Before you write</Heading>
        <p className="mt-1">Most setup questions are answered in the FAQ and the API key setup guide.</p>
      </div>
    </aside>
  );
}
