// The footer follows who is signed in, and its dialogs' links carry their URL state.
import { describe, expect, it } from "vitest";
import { hashSecret } from "~/lib/auth/password";
import { Browser, insertUser, STRONG_PASSWORD, uniqueEmail } from "./helpers";

const footerOf = (html: string) => html.slice(html.indexOf("<footer"), html.indexOf("</footer>"));
/** A link's target and text, whatever attributes React Router adds between them. */
const link = (href: string, text: string) => new RegExp(`href="${href.replace(/[?.*+]/g, "\\$&")}"[^>]*>${text}<`);

describe("the site footer", () => {
  it("offers Sign In and Create Account to visitors, the Dashboard to signed-in people", async () => {
    const visitor = footerOf(await (await new Browser().get("/")).text());
    expect(visitor).toContain(">Sign In<");
    expect(visitor).toContain(">Create Account<");
    expect(visitor).toMatch(link("/auth?mode=signin", "Download"));

    const email = uniqueEmail("footer");
    await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, confirmed: true });
    const browser = new Browser();
    await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    const member = footerOf(await (await browser.get("/pricing")).text());
    expect(member).not.toContain(">Sign In<");
    expect(member).not.toContain(">Create Account<");
    expect(member).toMatch(link("/dashboard", "Dashboard"));
    expect(member).toMatch(link("/#download", "Download"));
  });

  it("links every dialog by its URL", async () => {
    const footer = footerOf(await (await new Browser().get("/changelog")).text());
    for (const href of [
      "/changelog?modal=features",
      "/changelog?modal=contact",
      "/changelog?modal=api-guide",
      "/changelog?modal=docs&amp;doc=privacy",
      "/changelog?modal=docs&amp;doc=terms",
      "/changelog?modal=docs&amp;doc=security",
      "/changelog?modal=docs&amp;doc=api",
      "/#faq",
      "/#pricing",
    ]) {
      expect(footer, href).toContain(`href="${href}"`);
    }
    expect(footer).toContain("instagram.com");
  });
});

describe("the site's dialogs", () => {
  it("are in the page's HTML itself when the URL asks for one, and absent otherwise", async () => {
    // Their code loads lazily; the HTML must not need a script to show them: the dialog is in the
    // document's flow, before any segment React streams later into a hidden div (React Router's
    // hydration data may stream that way; a script moves such segments into place).
    for (const [modal, title] of [
      ["contact", "Contact Support"],
      ["api-guide", "API Key Setup Guide"],
      ["features", "Modelify Features"],
      ["docs", "Privacy Policy"],
    ] as const) {
      const html = await (await new Browser().get(`/pricing?modal=${modal}`)).text();
      expect(html, modal).toContain("<dialog");
      expect(html, modal).toContain(title);
      const dialogAt = html.indexOf("<dialog");
      const firstOutlined = html.search(/<div hidden id="S:\d+"/);
      expect(firstOutlined === -1 || dialogAt < firstOutlined, modal).toBe(true);
    }
    expect(await (await new Browser().get("/pricing")).text()).not.toContain("<dialog");
  });
});
