// A page's loaders decide the same whether the page is loaded whole or its data is fetched by a
// navigation in the browser (`<path>.data`, which React Router hands the loaders as `request.url`;
// its `url` argument is the page's own address): the tab menu's label on a phone (the dashboard
// layout's `place`), the old `?tab=` links' redirects, and the unknown pages sent home.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Browser, createConfirmedUser, ORIGIN } from "./helpers";
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

/** Where a navigation's data answer sends the browser (React Router's redirect for a `.data` request: 202), or its status. */
async function dataOutcome(answer: Response): Promise<string> {
  if (answer.status !== 202) return String(answer.status);
  const redirect = decodeFlat(JSON.parse((await answer.text()).split("\n")[0]!) as unknown[], 1) as { redirect?: string; status?: number };
  return `${redirect.status} ${redirect.redirect}`;
}

/** Where the page's own answer sends the browser, or its status. */
const pageOutcome = (answer: Response) => (answer.status === 302 ? `302 ${answer.headers.get("Location")}` : String(answer.status));

describe("a navigation's data request", () => {
  it("follows an old ?tab= link to its tab, as the page does", async () => {
    const { browser } = await createConfirmedUser();
    for (const [query, to] of [
      ["?tab=usage", "/dashboard/usage"],
      ["?tab=billing&view=invoices", "/dashboard/billing?view=invoices"],
      ["?tab=debug", "/dashboard/admin"],
      ["?tab=whatever", "/dashboard"],
    ] as const) {
      expect(pageOutcome(await browser.get(`/dashboard${query}`)), query).toBe(`302 ${to}`);
      expect(await dataOutcome(await browser.get(`/dashboard.data${query}`)), query).toBe(`302 ${to}`);
    }
  });

  it("sends an old page home and answers 404 for a file, as the page does", async () => {
    const visitor = new Browser();
    for (const [path, outcome] of [
      ["/debug", "302 /"],
      ["/waitlist", "302 /"],
      ["/no/such/page", "302 /"],
      ["/favicon.ico", "404"],
      ["/x.php", "404"],
    ] as const) {
      expect(pageOutcome(await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual" })), path).toBe(outcome);
      expect(await dataOutcome(await visitor.get(`${path}.data`)), `${path}.data`).toBe(outcome);
    }
  });
});
