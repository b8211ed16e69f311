// Issue 31: the fingerprinted files under /assets/ (their names change with their content) are kept
// by browsers for a year without asking again (public/_headers); pages are not.
import { hydrated } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("scripts, styles and fonts are cached for a year as immutable; the page itself is not", async ({ page }) => {
  const assets: Array<{ url: string; cacheControl: string }> = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/")) assets.push({ url: response.url(), cacheControl: response.headers()["cache-control"] ?? "" });
  });
  const document = await page.goto("/");
  // The scripts load after the first paint (app/server/hydrate-after-paint.ts): hydrated, all are in.
  await hydrated(page);
  expect(document?.headers()["cache-control"] ?? "").not.toContain("immutable");
  const kinds = new Set(assets.map(({ url }) => url.split(".").pop()));
  for (const kind of ["js", "css", "woff2"]) expect(kinds, `a .${kind} file under /assets/`).toContain(kind);
  for (const asset of assets) expect(asset.cacheControl, asset.url).toBe("public, max-age=31536000, immutable");
});
