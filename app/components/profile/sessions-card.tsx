// The profile's "Sessions and devices": every browser and desktop app signed in to the account,
// and ending them. Plain HTML forms post to /dashboard/profile/sessions, which answers with a
// redirect back here (?sessions=<outcome>), so it all works before and without JavaScript.
import { useSearchParams } from "react-router";
import type { SessionsOutcome } from "~/lib/auth/sessions-list.server";
import { lastActiveLabel } from "~/lib/profile/last-active";
import { SESSION_MESSAGES } from "~/lib/profile/messages";
import type { DeviceKeyView, SessionView } from "~/lib/profile/view";
import { Money } from "../money";
import { Alert, buttonClass, Card, LineIcon } from "../ui";
import { useFormat } from "~/components/format";

const ACTION = "/dashboard/profile/sessions";

const ICONS = {
  // A globe for browsers, a monitor for the desktop app.
  web: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-9 9h18M12 3c2.4 2.5 3.6 5.5 3.6 9s-1.2 6.5-3.6 9c-2.4-2.5-3.6-5.5-3.6-9S9.6 5.5 12 3Z",
  desktop: "M3 4h18v12H3zM8 20h8M12 16v4",
} as const;

const NOTICES: Record<SessionsOutcome, { tone: "success" | "error"; text: string }> = {
  ended: { tone: "success", text: SESSION_MESSAGES.ended },
  "others-ended": { tone: "success", text: SESSION_MESSAGES.othersEnded },
  "not-found": { tone: "error", text: SESSION_MESSAGES.notFound },
  current: { tone: "error", text: SESSION_MESSAGES.current },
};

function Notice() {
  const [params] = useSearchParams();
  const outcome = params.get("sessions");
  const notice = outcome && Object.hasOwn(NOTICES, outcome) ? NOTICES[outcome as SessionsOutcome] : null;
  return notice ? (
    <Alert tone={notice.tone} className="mt-4">
      {notice.text}
    </Alert>
  ) : null;
}

/** `returnTo`: the page the forms come back to (the profile, or the access review after a reset). */
export function SessionsCard({ sessions, returnTo = "/dashboard/profile" }: { sessions: SessionView[]; returnTo?: string }) {
  // The list is a snapshot of the page's load: the current session was active then, so its time
  // is the reference, the same on the server and in the browser.
  const now = Math.max(0, ...sessions.map((s) => s.lastActiveAt));
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section aria-labelledby="sessions-title">
      <Card className="p-6">
        <h2 id="sessions-title" className="text-lg font-semibold text-slate-900">
          Sessions and devices
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The browsers and desktop apps signed in to your account. Each desktop app has its own key: revoke any you do not recognise, and it is signed out at
          its next request. To end this browser's session, sign out.
        </p>
        <Notice />
        <ul className="mt-4 divide-y divide-slate-100" aria-label="Active sessions">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} now={now} returnTo={returnTo} />
          ))}
        </ul>
        <div className="mt-4 border-t border-slate-100 pt-4">
          {others > 0 ? (
            <form method="post" action={ACTION} className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
              <input type="hidden" name="intent" value="end-others" />
              <input type="hidden" name="next" value={returnTo} />
              <button type="submit" className={buttonClass("secondary", "sm", "w-full shrink-0 sm:w-auto")} aria-describedby="end-others-hint">
                Sign out all other sessions
              </button>
              <p id="end-others-hint" className="text-xs text-slate-500">
                Also cancels a pending e-mail change, unused e-mail links and device codes you approved that no app has collected yet.
              </p>
            </form>
          ) : (
            <p className="text-sm text-slate-600">No other sessions are signed in.</p>
          )}
        </div>
      </Card>
    </section>
  );
}

/** "macOS · Modelify 1.4.2 · " for a device key; nothing it doesn't know. */
function KeyFacts({ keyView }: { keyView: DeviceKeyView }) {
  const parts = [keyView.platform, keyView.appVersion ? `Modelify ${keyView.appVersion}` : null].filter(Boolean);
  return parts.length ? `${parts.join(" · ")} · ` : null;
}

function SessionRow({ session, now, returnTo }: { session: SessionView; now: number; returnTo: string }) {
  const f = useFormat();
  const factsId = `session-${session.id}-facts`;
  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="session"
      data-device-id={session.key ? session.id : undefined}
    >
      <div className="flex min-w-0 items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
          <LineIcon d={ICONS[session.client]} />
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="break-words font-medium text-slate-900">{session.device}</span>
            {session.current ? <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">This device</span> : null}
          </p>
          <p id={factsId} className="mt-0.5 text-sm text-slate-600">
            <span className="sr-only">{session.client === "desktop" ? "Desktop app. " : "Browser. "}</span>
            {session.key ? <KeyFacts keyView={session.key} /> : null}
            {lastActiveLabel(session.lastActiveAt, now, f)}
            {session.key?.country ? ` from ${session.key.country}` : null}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">. </span>
            Signed in {f.date(session.createdAt)}
          </p>
          {session.key ? (
            <p className="mt-0.5 text-sm text-slate-600" data-testid="device-usage">
              {`${f.plural(session.key.monthRequests, "request")} this month · `}
              <Money value={session.key.monthCostUsd} />
            </p>
          ) : null}
        </div>
      </div>
      {session.current ? null : (
        <form method="post" action={ACTION} className="shrink-0 pl-13 sm:pl-0">
          <input type="hidden" name="intent" value="end" />
          <input type="hidden" name="sessionId" value={session.id} />
          <input type="hidden" name="next" value={returnTo} />
          <button
            type="submit"
            aria-label={`${session.key ? "Revoke device" : "End session"}: ${session.device}`}
            aria-describedby={factsId}
            className={buttonClass("secondary", "sm")}
          >
            {session.key ? "Revoke" : "End session"}
          </button>
        </form>
      )}
    </li>
  );
}
