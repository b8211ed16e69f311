import type { Route } from "./+types/outbox";
import { Card, Logo } from "~/components/ui";
import { listOutbox } from "~/lib/mail/outbox.server";
import { app } from "~/server/context.server";
import { requireLocalMachine } from "~/server/local-only.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Outbox (local development) | Modelify");

// Local development only: shows the e-mails and text messages that real providers would have sent.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, db } = app(context);
  requireLocalMachine(request, env);
  return { messages: await listOutbox(db) };
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main" className="min-h-screen bg-slate-50 px-4 py-10">
      <div className="mx-auto max-w-3xl">
        <div className="flex items-center justify-between">
          <Logo />
          <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-800">Local development</span>
        </div>
        <h1 className="mt-8 text-2xl font-bold text-slate-900">Outbox</h1>
        <p className="mt-1 text-sm text-slate-600">
          No mail or SMS provider is configured, so e-mails and text messages are stored here instead of being sent. JSON:{" "}
          <a className="text-brand-700 underline" href="/dev/outbox.json">
            /dev/outbox.json
          </a>
        </p>
        {loaderData.messages.length === 0 ? (
          <Card className="mt-6 p-8 text-center text-sm text-slate-600">No messages yet.</Card>
        ) : (
          <ul className="mt-6 space-y-4">
            {loaderData.messages.map((m) => (
              <li key={m.id}>
                <Card className="p-5">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 className="flex items-center gap-2 font-semibold text-slate-900">
                      <span
                        className={
                          m.channel === "sms"
                            ? "rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-semibold uppercase text-emerald-800"
                            : "rounded bg-brand-50 px-1.5 py-0.5 text-xs font-semibold uppercase text-brand-800"
                        }
                      >
                        {m.channel === "sms" ? "SMS" : "E-mail"}
                      </span>
                      {m.subject}
                    </h2>
                    <time className="text-xs text-slate-500" dateTime={new Date(m.createdAt).toISOString()}>
                      {new Date(m.createdAt).toISOString().replace("T", " ").slice(0, 19)} UTC
                    </time>
                  </div>
                  <p className="mt-1 text-sm text-slate-600">To: {m.to}</p>
                  <pre className="mt-3 whitespace-pre-wrap rounded-lg bg-slate-50 p-3 font-sans text-sm text-slate-800">{m.text}</pre>
                  {m.links.length ? (
                    <ul className="mt-3 space-y-1 text-sm">
                      {m.links.map((l) => (
                        <li key={l}>
                          <a className="break-all text-brand-700 underline" href={l}>
                            {l}
                          </a>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </div>
    </main>
  );
}
