// Issue 31: every file of the client build is served as built, and the fingerprinted files under
// /assets/ (their names change with their content) are kept by browsers for a year without asking
// again (public/_headers); pages are not.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { hydrated } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("scripts, styles and fonts are cached for a year as immutable; the page itself is not", async ({ page }) => {
  const assets: Array<{ url: string; cacheControl: string }> = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/")) assets.push({ url: response.url(), cacheControl: response.headers()["cache-control"] ?? "" });
  });
  const document = await page.goto("/");
  // Hydrated: every script of the page has loaded.
  await hydrated(page);
  expect(document?.headers()["cache-control"] ?? "").not.toContain("immutable");
  const kinds = new Set(assets.map(({ url }) => url.split(".").pop()));
  for (const kind of ["js", "css", "woff2"]) expect(kinds, `a .${kind} file under /assets/`).toContain(kind);
  for (const asset of assets) expect(asset.cacheControl, asset.url).toBe("public, max-age=31536000, immutable");
});

test("every file of the client build is served as it was built; the asset handler's own files are not served", async ({ request }) => {
  // wrangler.toml sends every path to the Worker except those its run_worker_first rules exclude:
  // a file added to public/ without its own rule would be answered by the Worker (a 404 page).
  const client = `${process.env.E2E_BUILD_DIR}/client`;
  // What the asset handler reads and never serves: its headers rules, its ignore list, and what that lists.
  const ignored = readFileSync(join(client, ".assetsignore"), "utf8").split("\n").filter(Boolean);
  const config = new Set(["_headers", ".assetsignore", ...ignored]);
  const files = readdirSync(client, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(client, join(entry.parentPath, entry.name)))
    .filter((file) => !config.has(file));
  expect(files).toContain("favicon.svg");
  expect(files.filter((file) => file.startsWith("assets/")).length).toBeGreaterThan(10);
  for (const file of files) {
    const response = await request.get(`/${file}`);
    expect(response.status(), file).toBe(200);
    expect(Buffer.compare(await response.body(), readFileSync(join(client, file))), file).toBe(0);
  }
  // The Worker answers these paths as any unknown one: 404 for a file, home for a page-like path.
  for (const file of config) expect((await request.get(`/${file}`, { maxRedirects: 0 })).status(), file).not.toBe(200);
});
