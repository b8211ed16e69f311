// The text is set in Inter, from the file the page preloads: the cut Latin face
// (scripts/subset-font.mjs) once went unused because its @font-face differed from the family's
// other faces, and nothing but a look at a screenshot showed it.
import { expect, test } from "./fixtures.ts";

test("the pages use the preloaded Latin face of Inter, fetched once", async ({ page }) => {
  const fontRequests: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "font") fontRequests.push(new URL(request.url()).pathname);
  });
  for (const path of ["/", "/auth"]) {
    fontRequests.length = 0;
    await page.goto(path);
    const preloaded = await page.locator('link[rel="preload"][as="font"]').getAttribute("href");
    expect(preloaded).toMatch(/^\/assets\/inter-latin-wght-[\w-]+\.woff2$/);
    const used = await page.evaluate(async () => {
      await document.fonts.ready;
      const heading = document.querySelector("h1")!;
      const faces = await document.fonts.load(`${getComputedStyle(heading).fontWeight} 16px "Inter Variable"`, heading.textContent ?? "");
      return faces.map((face) => face.status);
    });
    expect(used, path).toEqual(["loaded"]);
    expect(fontRequests, path).toEqual([preloaded]);
  }
});
