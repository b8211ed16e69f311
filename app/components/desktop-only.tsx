// What the download places show on a phone or tablet, where none of the builds runs (issue 46):
// that Modelify is a desktop app, and a button that e-mails the account's own address a link to
// the Downloads page, to open on a computer. The button is a form posting to that page's action:
// without JavaScript its answer is that page with the outcome; with it, the answer shows in place.
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { type DetectedDevice, MOBILE_DEVICES } from "~/lib/downloads/options";
import { Alert, Button, cx, Spinner } from "./ui";

/** The Downloads page, whose action sends the link (routes/dashboard/downloads.tsx). */
const EMAIL_LINK_ACTION = "/dashboard/downloads";

export type EmailLinkAnswer = { ok: boolean; message: string };

/**
 * The server tells phones and tablets from the User-Agent. An iPad asking for the desktop site
 * says "Macintosh" like a Mac; only the browser can tell it apart: a Mac has no touch screen.
 */
export function useDetectedDevice(server: DetectedDevice): DetectedDevice {
  const [device, setDevice] = useState(server);
  useEffect(() => {
    setDevice(server);
    if (server.kind === "desktop" && server.optionId.startsWith("mac-") && navigator.maxTouchPoints > 1) setDevice({ kind: "mobile", device: "ipad" });
  }, [server]);
  return device;
}

/** "E-mail me the link": to `email`, the account's own address, and nowhere else. */
function EmailLinkForm({ email, submitted, className }: { email: string; submitted?: EmailLinkAnswer; className?: string }) {
  const fetcher = useFetcher<EmailLinkAnswer>();
  const answer = fetcher.data ?? submitted;
  const busy = fetcher.state !== "idle";
  return (
    <div className={className}>
      <fetcher.Form method="post" action={EMAIL_LINK_ACTION} className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <input type="hidden" name="intent" value="email-link" />
        <Button type="submit" size="lg" disabled={busy} className="w-full sm:w-auto">
          {busy ? <Spinner className="h-4 w-4" label="Sending" /> : null}
          E-mail me the download link
        </Button>
        <p className="min-w-0 text-sm text-slate-600">
          We send it to <span className="break-all font-medium text-slate-900">{email}</span>, the address of this account.
        </p>
      </fetcher.Form>
      <div aria-live="polite" className="mt-3 empty:hidden">
        {answer ? <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert> : null}
      </div>
    </div>
  );
}

/** A phone or tablet: no build to recommend, and the link by e-mail instead. */
export function DesktopOnlyNotice({
  device,
  email,
  submitted,
  headingLevel = "h2",
  compact = false,
  className,
}: {
  device: Extract<DetectedDevice, { kind: "mobile" }>["device"];
  email: string;
  submitted?: EmailLinkAnswer;
  headingLevel?: "h2" | "h3";
  /** Inside a dialog that has its own title: a smaller heading. */
  compact?: boolean;
  className?: string;
}) {
  const Heading = headingLevel;
  return (
    <div className={cx("min-w-0", className)} data-testid="desktop-only">
      <Heading className={cx("font-semibold text-slate-900", compact ? "text-base" : "text-xl")}>Modelify is a desktop app</Heading>
      <p className="mt-1 text-sm text-slate-600">
        You are on {MOBILE_DEVICES[device]}. Modelify runs on Windows, macOS and Linux computers, not on phones or tablets. Get the link by e-mail and open it
        on your computer: the Downloads page there offers the build for it.
      </p>
      <EmailLinkForm email={email} submitted={submitted} className="mt-4" />
    </div>
  );
}
