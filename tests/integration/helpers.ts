// Drives the whole Worker (site + consumer) through fetch, as a browser or the desktop app would.
import { env, SELF } from "cloudflare:test";
import { desc, eq } from "drizzle-orm";
import { hashSecret, normaliseSecurityAnswer } from "~/lib/auth/password";
import { type RecentProof, requireRecentProof } from "~/lib/auth/recent-proof.server";
import { RECENT_PROOF } from "~/lib/constants";
import { normalisePhone } from "~/lib/auth/validation";
import { getDb, schema } from "~/lib/db.server";
import { downloadLinkKeys, type KeySettings, sessionKeys } from "~/lib/keys";
import type { SignUpMetadata } from "~drizzle/schema";

export const ORIGIN = "http://localhost";
export const db = getDb(env.DB);

/** The test Worker's keys (tests/wrangler.test.toml), as the site makes them from its settings. */
export const keySettings = env as unknown as KeySettings<"JWT_SECRET" | "DOWNLOAD_LINK_SECRET" | "PHONE_CODE_SECRET" | "TWO_FACTOR_KEY">;
export const SESSION_KEYS = sessionKeys(keySettings);
export const DOWNLOAD_LINK_KEYS = downloadLinkKeys(keySettings);
/** What ending a session touches: D1 and the ledgers (its live sockets close). */
export const revocationDeps = { db, ledgers: env.USAGE_LEDGER };

/**
 * "Confirm it's you" as a test of a lib function makes it: the account's password (and `code`
 * where two-factor is on) shown now, in `sessionId` (a made-up one when the test has none).
 */
export function proveWithPassword(
  userId: string,
  input: { password?: string; code?: string; sessionId?: string } = {},
  options: { passwordAlways?: boolean } = {},
) {
  const deps = { db, queue: env.EVENTS, env: keySettings, ip: uniqueIp(), origin: ORIGIN };
  return requireRecentProof(
    deps,
    { userId, sessionId: input.sessionId ?? crypto.randomUUID(), provenAt: null },
    { password: input.password ?? STRONG_PASSWORD, code: input.code },
    options,
  );
}

/** A recent proof of the account, or the test fails. */
export async function recentProofOf(userId: string, input: { password?: string; code?: string; sessionId?: string } = {}): Promise<RecentProof> {
  const result = await proveWithPassword(userId, input);
  if (!result.ok) throw new Error(`the proof was refused: ${result.reason}`);
  return result.proof;
}

let counter = 0;
/** Unique per test run, so tests never share lockout counters or accounts. */
export function uniqueEmail(prefix = "user") {
  return `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}@example.com`;
}
export function uniqueIp() {
  counter++;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
}

/** A browser: keeps cookies between requests and sends Origin on POSTs. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(readonly ip: string = uniqueIp()) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  }

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index);
      const value = decodeURIComponent(pair!.slice(index + 1));
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string, init: RequestInit = {}) {
    const response = await SELF.fetch(`${ORIGIN}${path}`, {
      redirect: "manual",
      ...init,
      headers: { Cookie: this.cookieHeader(), "CF-Connecting-IP": this.ip, ...(init.headers as Record<string, string>) },
    });
    this.store(response);
    return response;
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await SELF.fetch(`${ORIGIN}${path}`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams(fields),
      headers: {
        Cookie: this.cookieHeader(),
        Origin: ORIGIN,
        "CF-Connecting-IP": this.ip,
        "Content-Type": "application/x-www-form-urlencoded",
        ...headers,
      },
    });
    this.store(response);
    return response;
  }
}

export const STRONG_PASSWORD = "Sunny-Day-42";

export function signUpFields(email: string, overrides: Record<string, string> = {}) {
  return {
    intent: "signup",
    firstName: "Ada",
    lastName: "Lovelace",
    initial: "K",
    email,
    phoneNumber: "555 123 4567",
    securityQuestion: "first_pet",
    securityAnswer: "Rex the dog",
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
    ...overrides,
  };
}

/** The Edit Profile form as the profile page sends it on Save, every field present. */
export function profileFormFields(email: string, overrides: Record<string, string> = {}) {
  return {
    intent: "save",
    firstName: "Ada",
    initial: "",
    lastName: "Lovelace",
    username: "",
    email,
    phoneNumber: "",
    bio: "",
    company: "",
    location: "",
    website: "",
    timezone: "UTC",
    securityQuestion: "",
    securityAnswer: "",
    ...overrides,
  };
}

/** Waits for the consumer to deliver a mail to the outbox (it arrives through the real queue). */
export async function waitForMail(to: string, subject: RegExp, { after = 0, timeoutMs = 8000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await db.select().from(schema.outbox).where(eq(schema.outbox.to, to)).orderBy(desc(schema.outbox.createdAt));
    const found = rows.find((r) => subject.test(r.subject) && r.createdAt >= after);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

export function linkPath(link: string) {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * Signs up through the form, confirms through the e-mailed link (the real queue and consumer) and
 * returns the signed-in browser: for tests whose subject is sign-up, its mail or its link.
 */
export async function signUpAndConfirm(email = uniqueEmail()) {
  const browser = new Browser();
  const signup = await browser.post("/auth?mode=signup", signUpFields(email));
  if (signup.status !== 200) throw new Error(`sign-up answered ${signup.status}`);
  const mail = await waitForMail(email, /Confirm your Modelify account/);
  const path = linkPath(mail.links[0]!);
  const token = new URL(mail.links[0]!).searchParams.get("token")!;
  const page = await browser.get(path);
  if (page.status !== 200) throw new Error(`callback answered ${page.status}`);
  const confirm = await browser.post(path, { token });
  if (confirm.status !== 302) throw new Error(`confirmation answered ${confirm.status}`);
  return { browser, email };
}

/**
 * A confirmed account as sign-up with signUpFields() leaves it, written straight to D1 through
 * the app's own code (its password hashing, drizzle), and a browser signed in through the sign-in
 * form (which creates the profile from the sign-up details, as the first sign-in does). For
 * every test whose subject is not sign-up: it skips the queue and the mail.
 */
export async function createConfirmedUser(email = uniqueEmail()) {
  const fields = signUpFields(email);
  const [passwordHash, answerHash] = await Promise.all([hashSecret(fields.password), hashSecret(normaliseSecurityAnswer(fields.securityAnswer))]);
  const metadata: SignUpMetadata = {
    first_name: fields.firstName,
    last_name: fields.lastName,
    initial: fields.initial,
    phone_number: normalisePhone(fields.phoneNumber),
    security_question: fields.securityQuestion,
    security_answer_hash: answerHash,
  };
  const row = await insertUser({ email, passwordHash, metadata, confirmed: true });
  const browser = new Browser();
  const signin = await browser.post("/auth?mode=signin", { intent: "signin", email, password: fields.password });
  if (signin.status !== 200) throw new Error(`sign-in answered ${signin.status}`);
  return { browser, email, id: row.id };
}

/** A confirmed account with the given role, written straight to D1, and a browser signed in to it. */
export async function signedInAs(role: "user" | "admin") {
  const email = uniqueEmail(role);
  const row = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, role, confirmed: true });
  const browser = new Browser();
  const signin = await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
  if (signin.status !== 200) throw new Error(`sign-in answered ${signin.status}`);
  return { browser, id: row.id, email };
}

/** A user row written straight to D1 (admins, fixtures), the way the seed script does. */
export async function insertUser(input: { email: string; passwordHash: string; metadata: SignUpMetadata; role?: "user" | "admin"; confirmed?: boolean }) {
  const now = Date.now();
  const [row] = await db
    .insert(schema.users)
    .values({
      id: crypto.randomUUID(),
      email: input.email.toLowerCase(),
      passwordHash: input.passwordHash,
      metadata: input.metadata,
      role: input.role ?? "user",
      emailConfirmedAt: input.confirmed ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** The visible text of a page: scripts (loader data, the URL) and tags removed, entities decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;|&apos;|&rsquo;|&#x2019;/g, "'")
    .replace(/’/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;|&#160;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

export { queueSettled } from "../queue-tracker";

/** Resolves once `check` holds, looking every few milliseconds; fails after `timeoutMs` naming `what`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what = "the condition", timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `attempt` (its assertions included) until one run starts and ends within the same UTC
 * minute, at most three runs.
 * For tests of clock-aligned minute windows whose clock a test cannot set (the rate-limit
 * binding, the per-minute figures the server computes from its own time): a run that straddled
 * a minute's end is discarded and run again (with its own fresh accounts), rather than waiting
 * for room in the minute. After a straddle the next minute has just begun, so the second run fits.
 */
export async function inOneMinute<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    const minute = Math.floor(Date.now() / 60_000);
    const sameMinute = () => Math.floor(Date.now() / 60_000) === minute;
    try {
      const result = await attempt();
      if (sameMinute() || run === 3) return result;
    } catch (error) {
      // A failure inside one minute is a real failure; one across a minute's end proves nothing.
      if (sameMinute() || run === 3) throw error;
    }
  }
}

/** The session id (`sid` claim) of an access token. */
export function sidOfToken(jwt: string): string {
  return (JSON.parse(atob(jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { sid: string }).sid;
}

/** The session id of a signed-in browser: the `sid` of the access token its cookie holds as base64 JSON. */
export function sessionIdOf(browser: Browser): string {
  return sidOfToken(JSON.parse(atob(browser.cookies.get("mfy_access")!)));
}

/** Makes the browser's last proof older than the recent-proof window: what a stolen session's cookie looks like a while later. */
export const staleProof = (browser: Browser) =>
  db
    .update(schema.sessions)
    .set({ provenAt: Date.now() - RECENT_PROOF.windowMs - 60_000 })
    .where(eq(schema.sessions.id, sessionIdOf(browser)));
