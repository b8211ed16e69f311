// axe-core run inside the page: the accessibility sweep (accessibility.test.ts) and the flow tests
// that reach a dialog the sweep cannot open by URL (one behind a payment, a typed username...).
//
// axe.run in the page itself, not @axe-core/playwright's AxeBuilder: the builder injects axe into
// every frame on each call and finishes the run in a blank page it opens, 0.5-1.5 s a check on this
// machine; in the page, with only the violations' details asked for, 0.1-0.3 s. The site has no
// frames, so nothing the builder's frame walk would add is missed.
import type { Page } from "@playwright/test";
import axe from "axe-core";

/** WCAG 2.0/2.1 A and AA, WCAG 2.2 AA, and axe's best practices. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

export type AxeFinding = { url: string; state: string; rule: string; impact: string; nodes: string[] };

/** The page's violations as it stands now. */
export async function axeFindings(page: Page, state: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (tags) => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return results.violations.map((v) => ({ rule: v.id, impact: v.impact ?? "", nodes: v.nodes.map((n) => n.target.join(" ")) }));
  }, AXE_TAGS);
  const url = page.url().replace(/^https?:\/\/[^/]+/, "");
  return violations.map((v) => ({ url, state, ...v }));
}

/**
 * For a flow test: the open dialog `labelledBy` (its title's id) is there and the page, dialog
 * open, has no violation. accessibility.test.ts reads these calls from the test files: a dialog of
 * the app that its sweep cannot open must be checked by one of them.
 */
export async function expectAccessibleDialog(page: Page, labelledBy: string): Promise<void> {
  await page.locator(`dialog[open][aria-labelledby="${labelledBy}"], [role="alertdialog"][aria-labelledby="${labelledBy}"]`).waitFor();
  // Measured as it stands, not halfway through its fade-in (axe reads the colours through the
  // opacity): the finite animations running now are waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const findings = await axeFindings(page, `dialog ${labelledBy}`);
  if (findings.length) throw new Error(`axe found violations with ${labelledBy} open:\n${JSON.stringify(findings, null, 2)}`);
}
