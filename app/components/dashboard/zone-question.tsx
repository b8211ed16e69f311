// The dashboard's question of which time zone to count in (issue 48): asked once, while the
// account never chose a zone, when the browser's zone is another one. Never set silently: the
// browser's zone is read after hydration (the server cannot know it, so the first render is the
// same on both sides), and only the person's answer changes the account. Its buttons post a form
// to the overview's action (zod-checked there); the answer is remembered, so it is asked once.
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Alert, Button, Card } from "../ui";

type Answered = { ok: true } | { ok: false; error: string };

export function ZoneQuestion({ accountZone }: { accountZone: string }) {
  const [browserZone, setBrowserZone] = useState<string | null>(null);
  useEffect(() => {
    setBrowserZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? null);
  }, []);
  const fetcher = useFetcher<Answered>();
  if (!browserZone || browserZone === accountZone || fetcher.data?.ok) return null;
  const busy = fetcher.state !== "idle";
  return (
    <Card className="mb-6 border-brand-200 bg-brand-50/60 p-5" role="region" aria-labelledby="zone-question" data-testid="zone-question">
      <p id="zone-question" className="text-sm text-slate-800">
        {`Your browser's time zone is ${browserZone}. Show your usage in ${browserZone}?`}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        Your days, hours, budgets and every date are counted in your account's zone, now {accountZone}. You can change it on your profile.
      </p>
      {fetcher.data && !fetcher.data.ok ? (
        <Alert tone="error" className="mt-3">
          {fetcher.data.error}
        </Alert>
      ) : null}
      <fetcher.Form method="post" action="/dashboard?index" className="mt-4 flex flex-wrap gap-3">
        <input type="hidden" name="timeZone" value={browserZone} />
        <Button type="submit" name="answer" value="use" size="sm" disabled={busy}>
          {`Use ${browserZone}`}
        </Button>
        <Button type="submit" name="answer" value="keep" variant="secondary" size="sm" disabled={busy}>
          {`Keep ${accountZone}`}
        </Button>
      </fetcher.Form>
    </Card>
  );
}
