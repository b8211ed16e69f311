// The download pages as the server renders them: the landing's cards and their gates, the
// landing dialog, the Downloads tab for subscribers and others, and the post-payment dialog.
// Sizes, versions and SHA-256 come from the published release rows, never from the code.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { optionById, releaseKey } from "~/lib/downloads/options";
import { DOWNLOAD } from "~/lib/constants";
import { currentReleases, publishRelease, type Release } from "~/lib/downloads/releases.server";
import { metered, requestDb } from "~/server/db.server";
import { PAGE_CACHE_HEADER } from "~/server/page-cache.server";
import { SITE_FORMATS } from "~/lib/format";
import { Browser, createConfirmedUser, db } from "./helpers";
import { measured } from "./log-lines";
import { payCheckout, STANDIN } from "./stripe-helpers";

const MAC_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const LINUX_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const IPAD_UA = "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** What a phone must never be told: that it is a computer, and to download an installer now. */
function expectNoInstallerFor(page: string) {
  expect(page).not.toMatch(/We detected (Windows|macOS|Linux)/);
  expect(page).not.toMatch(/Download Now<\/button>/);
  expect(page).not.toContain("Detected OS");
  expect(page).not.toMatch(/Download for (Windows|macOS|Linux)<\/button>/);
  expect(page).toContain("Modelify is a desktop app");
  // A plain form post, so it works without JavaScript.
  expect(page).toMatch(/<form(?=[^>]*method="post")[^>]*action="\/dashboard\/downloads"[^>]*>(?:(?!<\/form>)[\s\S])*name="intent" value="email-link"/);
  expect(page).toContain("E-mail me the download link");
}

let mac: Release;
let linux: Release;

async function publish(optionId: string, size: number, version: string) {
  const option = optionById(optionId)!;
  const key = releaseKey(option, version);
  const bytes = new Uint8Array(size);
  crypto.getRandomValues(bytes.subarray(0, Math.min(size, 65_536)));
  await env.BUCKET.put(key, bytes);
  const published = await publishRelease(db, env.BUCKET, { optionId, version, r2Key: key, publishedBy: null });
  if (!published.ok) throw new Error(published.message);
  return published.release;
}

/** The page's HTML without React's text separators, so "v{version}" reads as one string. */
async function html(browser: Browser, path: string, userAgent?: string) {
  const response = await browser.get(path, userAgent ? { headers: { "User-Agent": userAgent } } : {});
  expect(response.status).toBe(200);
  return (await response.text()).replaceAll("<!-- -->", "");
}

async function freeUser() {
  return (await createConfirmedUser()).browser;
}
async function subscriber() {
  const { browser, email } = await createConfirmedUser();
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId: user!.id, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
  return browser;
}

const sectionOf = (page: string) => page.slice(page.indexOf('id="download"'), page.indexOf('id="pricing"'));

beforeAll(async () => {
  const stamp = Date.now() % 100000;
  mac = await publish("mac-apple-silicon", 123_456, `5.${stamp}.0`);
  linux = await publish("linux-x64", 2_500_000, `5.${stamp}.1`);
});

describe("the landing's download section", () => {
  it("shows three platform cards with the published builds' versions and sizes", async () => {
    const section = sectionOf(await html(new Browser(), "/"));
    for (const platform of ["windows", "mac", "linux"]) expect(section).toContain(`data-testid="download-card-${platform}"`);
    expect(section).toContain("MSI installer");
    expect(section).toContain("AppImage");
    expect(section).toContain(`v${mac.version}`);
    expect(section).toContain(SITE_FORMATS.bytes(mac.byteSize));
    expect(section).toContain(`v${linux.version}`);
    expect(section).toContain(SITE_FORMATS.bytes(linux.byteSize));
    for (const step of ["Download and install", "Add your API keys", "Start building"]) expect(section).toContain(step);
  });

  it("sends visitors to sign in, free users to pricing, and opens the dialog for subscribers", async () => {
    const visitor = sectionOf(await html(new Browser(), "/"));
    expect(visitor.match(/href="\/auth"/g)).toHaveLength(3);

    const free = await freeUser();
    const freeSection = sectionOf(await html(free, "/"));
    expect(freeSection.match(/href="\/pricing"/g)).toHaveLength(3);
    // The dialog is for subscribers only, even with the query.
    expect(await html(free, "/?download=mac")).not.toContain('id="download-title"');

    const paid = await subscriber();
    const paidSection = sectionOf(await html(paid, "/"));
    expect(paidSection).toContain('href="/?download=windows#download"');
    expect(paidSection).toContain('href="/?download=mac#download"');
    expect(paidSection).toContain('href="/?download=linux#download"');
  });

  it("renders the dialog with each build's version, size and SHA-256, and a form that works without JavaScript", async () => {
    const page = await html(await subscriber(), "/?download=mac");
    expect(page).toContain("<dialog");
    expect(page).toContain("Download Modelify for macOS");
    expect(page).toContain(mac.sha256);
    expect(page).toContain(`v${mac.version}`);
    expect(page).toContain("macOS 12 Monterey or later");
    expect(page).toContain("Select a version to download");
    expect(page).toMatch(/<form class="group mt-6" action="\/downloads\/prepare" method="post">/);
    expect(page).toContain('name="platform" value="mac"');
    expect(page).toContain('href="mailto:support@modelify.dev"');
    expect(page).toContain('href="/dashboard/downloads#installation-guide"');
  });
});

describe("the newest builds, as an isolate remembers them", () => {
  // A page under an address of its own is rendered, not answered from the edge copy of `/`.
  const fresh = () => new Browser().get(`/?fresh=${crypto.randomUUID()}`);

  it("renders a signed-out landing page without a D1 statement, and shows a build published here at once", async () => {
    await fresh();
    const again = await measured(fresh);
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(again.d1Statements).toBe(0);
    const windows = await publish("win-x64", 4096, `5.${Date.now() % 100000}.2`);
    const { response: after, d1Statements } = await measured(fresh);
    expect(d1Statements).toBe(1);
    expect(sectionOf((await after.text()).replaceAll("<!-- -->", ""))).toContain(`v${windows.version}`);
  });

  it("reads them again once DOWNLOAD.currentReleasesMs has passed", async () => {
    const read = async (now: number) => (await metered(() => currentReleases(requestDb(env.DB), now))).statements;
    const start = Date.now() + 10 * DOWNLOAD.currentReleasesMs;
    expect(await read(start)).toBe(1);
    expect(await read(start + DOWNLOAD.currentReleasesMs - 1)).toBe(0);
    expect(await read(start + DOWNLOAD.currentReleasesMs)).toBe(1);
  });
});

describe("the Downloads tab", () => {
  it("asks a free user to subscribe", async () => {
    const page = await html(await freeUser(), "/dashboard/downloads");
    expect(page).toContain("Subscription Required");
    expect(page).toMatch(/href="\/pricing"[^>]*>Subscribe Now/);
    expect(page).not.toContain("Download Now");
  });

  it("recommends the build for the visitor's OS with its real facts", async () => {
    const browser = await subscriber();
    const page = await html(browser, "/dashboard/downloads", MAC_UA);
    expect(page).toContain("Download Modelify");
    expect(page).toContain("Download Now");
    expect(page).toContain("We detected macOS");
    expect(page).toContain(`v${mac.version}`);
    expect(page).toContain(SITE_FORMATS.bytes(mac.byteSize));
    expect(page).toContain(mac.sha256);
    expect(page).toContain("All Versions");
    expect(page).toContain('id="installation-guide"');
    expect(page).toContain("No downloads yet");

    const onLinux = await html(browser, "/dashboard/downloads", LINUX_UA);
    expect(onLinux).toContain("We detected Linux");
    expect(onLinux).toContain(linux.sha256);
  });

  it("on a phone or tablet, recommends no build and offers to e-mail the link to the account's address", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId: user!.id, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
    for (const [ua, device] of [
      [IPHONE_UA, "an iPhone"],
      [ANDROID_UA, "an Android phone"],
      [IPAD_UA, "an iPad"],
    ] as const) {
      const page = await html(browser, "/dashboard/downloads", ua);
      expectNoInstallerFor(page);
      expect(page).toContain(`You are on ${device}.`);
      expect(page).toContain(email);
      // Which computers it runs on, none of them picked.
      expect(page).toContain("Computer requirements");
      // Every build stays one tap away.
      expect(page).toContain("All Versions");
      // The landing's download section says the same to a subscriber on a phone.
      expectNoInstallerFor(sectionOf(await html(browser, "/", ua)));
    }
    // A computer is still offered its build.
    expect(sectionOf(await html(browser, "/", MAC_UA))).not.toContain("Modelify is a desktop app");
  });

  it("lists every build of an OS under All Versions, and says which are not published", async () => {
    const browser = await subscriber();
    const linuxTab = await html(browser, "/dashboard/downloads?versions=linux");
    expect(linuxTab).toContain('id="all-versions"');
    expect(linuxTab).toContain('data-testid="build-linux-x64"');
    expect(linuxTab).toContain(linux.sha256);
    expect(linuxTab).toContain(SITE_FORMATS.bytes(linux.byteSize));
    const windows = await html(browser, "/dashboard/downloads?versions=windows");
    const x86 = windows.slice(windows.indexOf('data-testid="build-win-x86"'));
    expect(x86.slice(0, x86.indexOf("</li>"))).toContain("Not available yet");
    expect(windows).toContain("Windows 10 or 11");
  });

  it("shows the 5 most recent of more downloads, each with Re-download", async () => {
    const browser = await subscriber();
    for (let i = 0; i < 7; i++) expect((await browser.post("/downloads/prepare", { platform: "mac", arch: "apple-silicon" })).status).toBe(200);
    const page = await html(browser, "/dashboard/downloads");
    const recent = page.slice(page.indexOf('data-testid="recent-downloads"'));
    expect(recent.slice(0, recent.indexOf("</ul>")).match(/Re-download/g)).toHaveLength(5);
    expect(recent).toContain(`v${mac.version} · `);
  });

  it("shows the reason a download failed without JavaScript as an alert, from the code in the URL", async () => {
    const page = await html(await subscriber(), "/dashboard/downloads?error=notPublished");
    expect(page).toMatch(/role="alert"[^>]*>This version is not available yet\./);
  });
});

describe("the post-payment page", () => {
  it("opens the download dialog for a confirmed payment with the build for this computer", async () => {
    const { browser } = await createConfirmedUser();
    const checkout = await browser.post("/billing/checkout", {});
    expect(checkout.status).toBe(302);
    const url = checkout.headers.get("Location")!;
    expect(url.startsWith(`${STANDIN}/checkout/cs_`)).toBe(true);
    const success = new URL((await payCheckout(url)).headers.get("Location")!);
    const path = `${success.pathname}${success.search}`;
    const page = await html(browser, path, MAC_UA);
    // A trial: nothing was paid, and the dialog does not say so.
    expect(page).toContain("Free trial started");
    expect(page).not.toContain("Payment Successful!");
    expect(page).toContain("Detected OS: <span");
    expect(page).toContain(`Apple Silicon · ${SITE_FORMATS.bytes(mac.byteSize)} · v${mac.version}`);
    expect(page).toContain(mac.sha256);
    expect(page).toContain("Choose different platform or architecture");
    expect(page).toContain("Download for macOS");
    // Closed, it stays closed; 'Download App' opens it again.
    const closed = await html(browser, `${path}&download=closed`, MAC_UA);
    expect(closed).not.toContain("Free trial started");
    expect(closed).toMatch(/href="\/auth\/success\?session_id=[^"]+&amp;download=open"[^>]*>Download App/);
    // Without a session there is no dialog.
    expect(await html(browser, "/auth/success")).not.toContain("<dialog");
    // On a phone, the dialog offers the link by e-mail instead of a Windows installer.
    const onPhone = await html(browser, path, IPHONE_UA);
    expect(onPhone).toContain("<dialog");
    expectNoInstallerFor(onPhone);
  });
});
