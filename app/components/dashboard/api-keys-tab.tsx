// The API Keys tab: the new key's secret (once), the form that makes one, and the account's keys
// with when each was made and last used, each live one with its revoke button. Plain forms.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "react-router";
import type { z } from "zod";
import type { createApiKeySchema } from "~/lib/auth/api-key-form";
import type { ApiKeyListing } from "~/lib/auth/api-keys.server";
import type { ProofNeeds } from "~/lib/auth/recent-proof.server";
import { API_KEYS, READ_API } from "~/lib/constants";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field } from "../forms";
import { ProofFields } from "../profile/proof-fields";
import { Alert, Card, SubmitButton } from "../ui";
import { IntentButton } from "../intent-button";

type Props = {
  keys: ApiKeyListing[];
  needs: ProofNeeds;
  revoked: boolean | null;
  result?: SubmissionResult<string[]>;
  created: { name: string; secret: string } | null;
};

const CODE = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.8125rem] text-slate-800";

export function ApiKeysTab({ keys, needs, revoked, result, created }: Props) {
  const live = keys.filter((k) => k.revokedAt === null).length;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">API Keys</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          A personal API key lets your own scripts read your usage: <code className={CODE}>GET /api/v1/usage/summary</code> and{" "}
          <code className={CODE}>GET /api/v1/usage/requests</code>, with the header <code className={CODE}>Authorization: Bearer &lt;key&gt;</code>.
          {` Keys only read; they cannot report usage or change anything. Each key may make ${READ_API.perMinute} requests a minute. `}
          <Link to="/api-setup#read-api" className="font-medium text-brand-700 underline">
            How to use them
          </Link>
        </p>
      </div>
      {revoked === true ? <Alert tone="success">The key is revoked: it no longer works.</Alert> : null}
      {revoked === false ? <Alert tone="error">That key was not found, or was already revoked.</Alert> : null}
      {created ? <NewSecret {...created} /> : null}
      <CreateKey needs={needs} result={result} full={live >= API_KEYS.maxPerAccount} />
      <KeyList keys={keys} />
    </div>
  );
}

function NewSecret({ name, secret }: { name: string; secret: string }) {
  return (
    <section aria-labelledby="new-key-title">
      <Alert tone="success">
        <h2 id="new-key-title" className="font-semibold">{`Your new key "${name}"`}</h2>
        <p className="mt-1">Copy it now and keep it somewhere safe: it is not shown again. We e-mailed you that it was made.</p>
        <label htmlFor="new-key-secret" className="sr-only">
          The new key
        </label>
        <input
          id="new-key-secret"
          readOnly
          value={secret}
          spellCheck={false}
          className="mt-3 w-full rounded-md border border-green-300 bg-white px-3 py-2 font-mono text-sm text-slate-900"
        />
      </Alert>
    </section>
  );
}

function CreateKey({ needs, result, full }: { needs: ProofNeeds; result?: SubmissionResult<string[]>; full: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const [form, fields] = useForm<z.input<typeof createApiKeySchema>, z.output<typeof createApiKeySchema>>({
    id: "create-api-key",
    lastResult: result,
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <section aria-labelledby="create-key-title">
      <Card className="p-6">
        <h2 id="create-key-title" className="text-lg font-semibold text-slate-900">
          Create a key
        </h2>
        {full ? (
          <p className="mt-1 text-sm text-slate-600">{`An account holds at most ${API_KEYS.maxPerAccount} keys: revoke one below to make another.`}</p>
        ) : (
          <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
            <input type="hidden" name="intent" value="create" />
            {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
            <Field
              labelProps={{ children: "Name" }}
              inputProps={{ ...getInputProps(fields.name, { type: "text" }), maxLength: API_KEYS.nameMaxLength, autoComplete: "off" }}
              errors={fields.name.errors}
              hint="What the key is for, e.g. the script that uses it. Only you see it."
            />
            {needs.password || needs.code ? (
              <>
                <p className="text-sm text-slate-600">A key reads your account's usage, so confirm it's you.</p>
                <ProofFields needs={needs} errors={{ password: fields.password.errors?.[0], code: fields.code.errors?.[0] }} />
              </>
            ) : null}
            <SubmitButton pending={pending} idle="Create Key" busy="Creating Key..." size="md" className="" />
          </Form>
        )}
      </Card>
    </section>
  );
}

function KeyList({ keys }: { keys: ApiKeyListing[] }) {
  const f = useFormat();
  return (
    <section aria-labelledby="keys-title">
      <Card className="p-6">
        <h2 id="keys-title" className="text-lg font-semibold text-slate-900">
          Your keys
        </h2>
        {keys.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">You have no API keys.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100" aria-label="Your API keys">
            {keys.map((key) => (
              <li key={key.id} className="flex items-start justify-between gap-3 py-3 text-sm">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className={key.revokedAt === null ? "font-medium break-words text-slate-900" : "font-medium break-words text-slate-500"}>
                      {key.name}
                    </span>
                    {key.revokedAt !== null ? <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Revoked</span> : null}
                  </p>
                  <p className={key.revokedAt === null ? "mt-0.5 text-slate-600" : "mt-0.5 text-slate-500"}>
                    <code className="font-mono">{`${key.prefix}…`}</code>
                    {` · ${key.scopes.join(", ")} · made ${f.date(key.createdAt)} · `}
                    {key.revokedAt !== null
                      ? `revoked ${f.dateTime(key.revokedAt)}`
                      : key.lastUsedAt !== null
                        ? `last used ${f.dateTime(key.lastUsedAt)}`
                        : "never used"}
                  </p>
                </div>
                {key.revokedAt === null ? (
                  <IntentButton intent="revoke" fields={{ id: key.id }} label={`Revoke ${key.name}`} className="shrink-0">
                    Revoke
                  </IntentButton>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
