// "Your monthly hard cap of $X is reached…": what a reached hard cap means for the desktop app, and
// until when, in the account's zone and the page's locale (ADR 0030, 0031, 0032). The usage tab
// and the budget tab both show it.
import type { CapLine } from "~/lib/usage/caps";
import { useFormat } from "../format";
import { Alert } from "../ui";

export function CapNotice({ lines }: { lines: CapLine[] }) {
  const f = useFormat();
  const reached = lines.filter((l) => l.reached);
  if (reached.length === 0) return null;
  const until = (ms: number) => `${f.hour(ms)} on ${f.monthDay(ms)} (${f.timeZone})`;
  return (
    <Alert tone="error" className="mt-4">
      <ul className="space-y-1" data-testid="cap-reached">
        {reached.map((l) => (
          <li key={`${l.kind}:${l.id ?? ""}`}>
            {l.kind === "monthly" || l.kind === "daily"
              ? `Your ${l.kind} hard cap of ${f.usd(l.limitUsd)} is reached: the desktop app's requests are refused until ${until(l.resetsAt)}.`
              : `Your hard cap of ${f.usd(l.limitUsd)} a month for ${l.label} is reached: the desktop app's requests ${
                  l.kind === "model" ? "to that model" : "from that device"
                } are refused until ${until(l.resetsAt)}.`}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
