// What the browser tests share: how Debian's Chromium is launched, a client address per browser
// context, the local outbox, and the sign-in and sign-up journeys. Free of @playwright/test so the
// screenshot script can use it too.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";

/** The flags this machine's Chromium needs (no GPU, no sandbox in containers, no background traffic). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The built site under test: this worker's (set by tests/e2e/fixtures.ts; scripts/screenshots.ts sets its own). */
export const baseUrl = () => process.env.BASE_URL ?? "http://localhost:8787";

let clientCounter = Math.floor(Math.random() * 200);

/**
 * A client address of its own (CF-Connecting-IP, which the site trusts locally as the edge sets
 * it), so per-address limits and lockouts of one test never reach another.
 */
export function nextClientAddress() {
  clientCounter++;
  return `198.18.${Math.floor(clientCounter / 250) % 256}.${(clientCounter % 250) + 1}`;
}

/**
 * Options for a browser context that looks like a separate person: own address, own cookies; an
 * en-US browser in UTC unless `visitor` says otherwise (its locale and zone, issue 48).
 */
export function clientContextOptions(
  viewport = { width: 1280, height: 900 },
  visitor: { locale: string; timezoneId: string } = { locale: "en-US", timezoneId: "UTC" },
): BrowserContextOptions {
  return { baseURL: baseUrl(), viewport, ...visitor, extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() } };
}

/** A fresh page in a fresh context (used where a test file keeps one page across its steps). */
export async function newClientPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(clientContextOptions(viewport));
  await context.addInitScript(HYDRATION_PROBE);
  return context.newPage();
}

/**
 * Added to every context (fixtures.ts, newClientPage) before any page script runs: a stand-in for
 * React's developer-tools hook, which React calls at each commit. The first commit of a page is its
 * hydration, so `window.__e2eHydrated` resolves when the page's handlers are live.
 */
export function HYDRATION_PROBE() {
  let resolve = () => {};
  const hydrated = new Promise<void>((done) => {
    resolve = done;
  });
  Object.defineProperty(window, "__e2eHydrated", { value: hydrated });
  Object.defineProperty(window, "__REACT_DEVTOOLS_GLOBAL_HOOK__", {
    value: {
      supportsFiber: true,
      inject: () => 1,
      onCommitFiberRoot: () => resolve(),
      onCommitFiberUnmount: () => {},
      onPostCommitFiberRoot: () => {},
      checkDCE: () => {},
    },
  });
}

/**
 * Waits until the page's document has hydrated (React committed it): its buttons, dialogs and
 * forms run their script from then on. Until then (the modules load after the first paint, and
 * a busy machine takes a while to run them) a click is a plain link or form post.
 */
export async function hydrated(page: Page, timeoutMs = 15_000): Promise<void> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const expired = new Promise<never>((_, reject) =>
    deadline.addEventListener("abort", () => reject(new Error(`${page.url()} did not hydrate within ${timeoutMs} ms`)), { once: true }),
  );
  const state = await Promise.race([
    page.evaluate(() => {
      const probe = (window as unknown as { __e2eHydrated?: Promise<void> }).__e2eHydrated;
      return probe ? probe.then(() => "hydrated") : "no probe";
    }),
    expired,
  ]);
  if (state !== "hydrated") throw new Error(`No hydration probe in ${page.url()}: its context was made without HYDRATION_PROBE (tests/e2e/browser.ts)`);
}

/** Marks the current document (run it with `page.evaluate`); the mark is gone once the browser loads another. */
export const markDocument = () => {
  (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
};
/** Whether the document markDocument marked is still the page's (run it with `page.evaluate`). */
export const sameDocument = () => Boolean((window as unknown as { __sameDocument?: boolean }).__sameDocument);

/** Collects the page's console errors and uncaught exceptions from now on, into the array it returns. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/**
 * Resolves once the page has drawn two frames and run a task after them: React has rendered what
 * the last input (a focus, a blur, a key) set in motion. A wait for the page, not for a time.
 */
export async function afterRender(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(null);
          }),
        ),
      ),
  );
}

/**
 * Resolves once React Router has finished the navigation the browser's address shows (a back or
 * forward is the browser's at once, the router's only after it has loaded the page's data), and
 * the page has rendered it. Before hydration there is no router: the document is the page.
 */
export async function routerSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const router = (
      window as unknown as { __reactRouterDataRouter?: { state: { navigation: { state: string }; location: { pathname: string; search: string } } } }
    ).__reactRouterDataRouter;
    if (!router) return true;
    const { navigation, location: shown } = router.state;
    return navigation.state === "idle" && shown.pathname === location.pathname && shown.search === location.search;
  });
  await afterRender(page);
}

/**
 * Starts watching the page for an element matching `selector` and returns a wait for it: resolves
 * once one has been in the document (since the call), fails at the deadline. For a state that lasts
 * a moment (a dialog's 300 ms fade-out), which looking from time to time can miss on a busy machine.
 */
export async function watchFor(page: Page, selector: string, timeoutMs = 10_000): Promise<() => Promise<void>> {
  const key = `__e2eSeen${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ([selector, key]) => {
      (window as unknown as Record<string, Promise<void>>)[key] = new Promise<void>((resolve) => {
        if (document.querySelector(selector)) return resolve();
        const observer = new MutationObserver(() => {
          if (!document.querySelector(selector)) return;
          observer.disconnect();
          resolve();
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true });
      });
    },
    [selector, key] as const,
  );
  return async () => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const expired = new Promise<never>((_, reject) =>
      deadline.addEventListener("abort", () => reject(new Error(`No ${selector} in ${page.url()} within ${timeoutMs} ms`)), { once: true }),
    );
    await Promise.race([page.evaluate((key) => (window as unknown as Record<string, Promise<void>>)[key], key), expired]);
  };
}

type OutboxMessage = { to: string; subject: string; text: string; links: string[]; createdAt: number };

/** Polls the local outbox (JSON) for a mail to `to` whose subject matches, until `timeoutMs`. */
export async function waitForMail(to: string, subject: RegExp, after = 0, timeoutMs = 15_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl()}/dev/outbox.json?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as OutboxMessage[];
    const found = messages.find((m) => subject.test(m.subject) && m.createdAt >= after);
    if (found) return found;
    // The interval between two looks at the outbox (nothing announces a mail): the wait itself ends
    // with the mail, or fails at the deadline. (Free of @playwright/test, so no expect.poll here.)
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} matching ${subject}`);
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth?mode=signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/**
 * A confirmed account for a test whose subject is not sign-up: the sign-up form posted from this
 * page's browser (its cookies, its address: the sign-up proof cookie lands in it) without
 * rendering the form, then the outbox link followed in the page, which ends on /dashboard. The
 * form itself is the subject of auth-forms.test.ts and auth-journey.test.ts.
 */
export async function signUpAndConfirm(page: Page, email: string, password = "Sunny-Day-42") {
  const origin = baseUrl();
  const signup = await page.request.post("/auth?mode=signup", {
    headers: { Origin: origin },
    form: {
      intent: "signup",
      firstName: "Katherine",
      lastName: "Johnson",
      email,
      phoneNumber: "555 010 9876",
      securityQuestion: "favorite_food",
      securityAnswer: "pie",
      password,
      confirmPassword: password,
    },
  });
  if (!signup.ok()) throw new Error(`sign-up answered ${signup.status()}`);
  const mail = await waitForMail(email, /Confirm your Modelify account/);
  await page.goto(mail.links[0]!);
  await page.waitForURL((url) => url.pathname === "/dashboard");
}

/** Signs up through the form, rendered, and returns the confirmation mail (its link not yet followed). */
export async function signUp(page: Page, email: string, password = "Sunny-Day-42"): Promise<OutboxMessage> {
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill("Katherine");
  await page.getByLabel("Last name").fill("Johnson");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("555 010 9876");
  await page.getByLabel("Security question").selectOption("favorite_food");
  await page.getByLabel("Security answer").fill("pie");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Account created successfully!").waitFor();
  return waitForMail(email, /Confirm your Modelify account/);
}

/** Starts the trial through the checkout on the Stripe stand-in with the test card: the page ends on /auth/success. */
export async function subscribeWithTestCard(page: Page) {
  await page.goto("/pricing?checkout=open");
  await page.getByRole("dialog").getByRole("button", { name: "Continue to Checkout" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/checkout/"));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Start trial" }).click();
  await page.waitForURL((url) => url.pathname === "/auth/success");
}
