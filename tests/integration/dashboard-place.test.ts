// The tab menu's label on a phone (the dashboard layout's loader, `place`) is the same whether the
// page is loaded whole or its data is fetched by a navigation in the browser (`<path>.data`, which
// React Router hands the loaders as it came).
import { describe, expect, it } from "vitest";
import { createConfirmedUser } from "./helpers";
import { createTeamAs } from "./team-helpers";

/**
 * A value of a navigation's data (React Router's flat encoding: an object's keys are "_<index of
 * the key>" → index of the value, negative indexes are undefined, null and the like).
 */
function decodeFlat(flat: unknown[], index: number): unknown {
  if (index < 0) return null;
  const value = flat[index];
  if (Array.isArray(value)) return value.map((i) => decodeFlat(flat, i as number));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [String(flat[Number(k.slice(1))]), decodeFlat(flat, v as number)]));
  return value;
}

/** The label in the page's tab menu button (its HTML) or in the layout's data (its `.data`). */
function placeLabel(asked: string, body: string): string | null {
  if (!asked.endsWith(".data")) return /data-testid="tab-menu"[\s\S]*?<summary[^>]*>[\s\S]*?<span[^>]*>([^<]+)<\/span>/.exec(body)?.[1] ?? null;
  const routes = decodeFlat(JSON.parse(body.split("\n")[0]!) as unknown[], 0) as Record<string, { data?: { place?: { label: string } } }>;
  return routes["routes/dashboard/layout"]?.data?.place?.label ?? null;
}

describe("the tab menu's label", () => {
  it("names the same tab or team for a page and for its data", async () => {
    const owner = await createConfirmedUser();
    const team = `/dashboard/teams/${(await createTeamAs(owner.browser, "Label Crew")).slug}`;
    for (const [path, label] of [
      ["/dashboard", "Overview"],
      ["/dashboard/billing", "Billing"],
      ["/dashboard/usage/requests", "Request Log"],
      ["/dashboard/teams", "Teams"],
      [team, "Label Crew"],
      [`${team}/usage`, "Label Crew"],
    ] as const) {
      for (const asked of [path, `${path}.data`]) {
        const answer = await owner.browser.get(asked);
        expect(answer.status, asked).toBe(200);
        expect(placeLabel(asked, await answer.text()), asked).toBe(label);
      }
    }
  });
});
