// The desktop team's living example of signing in through the browser (RFC 8628 device
// authorization, docs/decisions/0018-desktop-device-authorization.md), then making model calls
// the way the app must: claim each call first (POST /api/v1/entitlements/claim, ADR 0017), make
// it only when granted, report it; when refused, wait the Retry-After and claim again. Every call
// goes through the client generated from the OpenAPI document (scripts/api, ADR 0025), so what it
// sends and reads is what the document says.
//
//   npm run desktop:demo                      against http://localhost:8787 (npm start)
//   npm run desktop:demo -- --watch           then a call every 5 s until the key stops working
//   npm run desktop:demo -- --base URL --name "Ada's laptop" --every 2
//
// It prints the code and the address to open; approve it in a browser signed in to Modelify.
// The functions are exported for the end-to-end test, which drives this same client.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { apiClient, FORM, type paths } from "./api/client.ts";

export const CLIENT_ID = "modelify-desktop";
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

type DeviceRequest = paths["/api/v1/auth/device"]["post"]["requestBody"]["content"]["application/json"];
type Device = Omit<DeviceRequest, "client_id">;
type UsageReport = Extract<paths["/api/v1/usage"]["post"]["requestBody"]["content"]["application/json"], { report_id: string }>;
/** A call's outcome as the loop below reads it: the status, and the body when it was JSON. */
type Answer<Body> = { status: number; body: Body };

const PLATFORMS: Partial<Record<NodeJS.Platform, Device["platform"]>> = { win32: "windows", darwin: "macos" };

/** What a real app sends about itself: its platform, version and a per-installation id. */
export function thisDevice({
  name = hostname(),
  appVersion = "1.0.0-demo",
  appInstanceId,
}: {
  name?: string;
  appVersion?: string;
  appInstanceId?: string;
} = {}): Device {
  return { device_name: name, platform: PLATFORMS[process.platform] ?? "linux", app_version: appVersion, app_instance_id: appInstanceId ?? randomUUID() };
}

/** Step 1: a device code for polling and a user code for the person. */
export async function requestDeviceCode(base: string, device: Device) {
  const { data, error, response } = await apiClient(base).POST("/api/v1/auth/device", { body: { client_id: CLIENT_ID, ...device }, headers: FORM });
  if (!data)
    throw new Error(`Could not start the sign-in (${response.status}): ${error && "error_description" in error ? error.error_description : error?.error}`);
  return data;
}

type Grant = Awaited<ReturnType<typeof requestDeviceCode>>;

/**
 * Step 2: poll until the person approves or denies, or the code expires. Waits the interval
 * between polls, and 5 s more after every slow_down, as RFC 8628 3.5 asks.
 */
export async function pollForTokens(
  base: string,
  grant: Grant,
  { sleep = pause, onPending }: { sleep?: (ms: number) => Promise<void>; onPending?: () => void } = {},
) {
  let interval = grant.interval ?? 5;
  const deadline = Date.now() + grant.expires_in * 1000;
  const api = apiClient(base);
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const { data, error } = await api.POST("/api/v1/auth/token", {
      body: { grant_type: DEVICE_CODE_GRANT, device_code: grant.device_code, client_id: CLIENT_ID },
      headers: FORM,
    });
    if (data) return data;
    const code = error && "error_description" in error ? error.error : undefined;
    if (code === "authorization_pending") {
      onPending?.();
      continue;
    }
    if (code === "slow_down") {
      interval = (error && "interval" in error ? error.interval : undefined) ?? interval + 5;
      continue;
    }
    // access_denied, expired_token, invalid_grant: the sign-in is over; start again.
    throw Object.assign(new Error(error && "error_description" in error ? error.error_description : (error?.error ?? "The sign-in failed")), { code });
  }
  throw Object.assign(new Error("The code expired. Start the sign-in again."), { code: "expired_token" });
}

/** How long a refused claim says to wait, in seconds: Retry-After, else the body's figure. */
export function retryAfterSeconds(response: Response, body: { retry_after_seconds?: number | null } | undefined) {
  const header = response.headers.get("Retry-After");
  if (header !== null && /^\d+$/.test(header.trim())) return Math.max(1, Number(header));
  return Math.max(1, Number(body?.retry_after_seconds) || 60);
}

const bearer = (accessToken: string) => ({ Authorization: `Bearer ${accessToken}` });

/**
 * Step 3: before each model call, claim it. 200 (granted: true): make the call. 429 (granted:
 * false): don't; `wait` is the seconds to wait before claiming again (the end of the exhausted
 * window). Counted by the account across all its devices; subscribers are always granted.
 */
export async function claimModelCall(base: string, accessToken: string) {
  const { data, error, response } = await apiClient(base).POST("/api/v1/entitlements/claim", { headers: bearer(accessToken) });
  const body = data ?? error;
  const refused = error && "granted" in error ? error : undefined;
  return { status: response.status, body, refused, wait: response.status === 429 ? retryAfterSeconds(response, refused) : 0 };
}

/** For display only (counts nothing): plan, use and what is left in each window. */
export async function getEntitlements(base: string, accessToken: string) {
  const { data, error, response } = await apiClient(base).GET("/api/v1/entitlements", { headers: bearer(accessToken) });
  return { status: response.status, body: data ?? error };
}

type Windows = { windows: Array<{ window: string; unit: string; used: number; limit: number | null; remaining: number | null }> };

/** The windows a refused claim is waiting on, in words: "minute (3 of 3)". */
export function exhaustedWindows(entitlements: Windows) {
  return entitlements.windows
    .filter((w) => w.remaining === 0)
    .map((w) => `${w.window}${w.unit === "tokens" ? " tokens" : ""} (${w.used} of ${w.limit})`)
    .join(", ");
}

type Refusal = Windows & { cap?: { kind: string; limit_usd: number; team?: string } };

/** What refused a claim, in words: the hard cap (a team's names the team), else the exhausted windows. */
export function refusedBy(refusal: Refusal) {
  const { cap } = refusal;
  if (!cap) return `${exhaustedWindows(refusal)} used`;
  return `the ${cap.team ? `team ${cap.team}'s ` : ""}${cap.kind} cap of ${cap.limit_usd} USD is reached`;
}

/** Step 4: report the model call with the device's key. */
export async function postUsageReport(base: string, accessToken: string, overrides: Partial<UsageReport> = {}) {
  const report: UsageReport = {
    report_id: randomUUID(),
    model_name: "gpt-4o-mini",
    model_provider: "openai",
    request_type: "chat",
    tokens_input: 900,
    tokens_output: 300,
    cost_usd: 0.0004,
    request_duration_ms: 850,
    success: true,
    metadata: { conversation_id: "desktop-demo" },
    ...overrides,
  };
  const { data, error, response } = await apiClient(base).POST("/api/v1/usage", { body: report, headers: bearer(accessToken) });
  return { status: response.status, body: data ?? error };
}

/** The access token lives 15 minutes: the refresh token (single use) gets the next pair. */
export async function refreshTokens(base: string, refreshToken: string) {
  const { data, error, response } = await apiClient(base).POST("/api/v1/auth/refresh", { body: { refresh_token: refreshToken } });
  return { status: response.status, body: data ?? error };
}

/** The same installation keeps its id between runs, so signing in again replaces its key. */
function instanceId() {
  const file = ".cache/desktop-demo-instance";
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const id = randomUUID();
    mkdirSync(".cache", { recursive: true });
    writeFileSync(file, id);
    return id;
  }
}

/** What the loop needs of any answer: its status, and its error words and code when refused. */
type Outcome = Answer<{ error?: string; code?: string } | object | undefined>;
const errorWords = (answer: Outcome) => (answer.body && "error" in answer.body ? answer.body.error : "");
const endedSession = (answer: Outcome) => Boolean(answer.body && "code" in answer.body && answer.body.code === "session_ended");

async function main() {
  const { values } = parseArgs({
    options: {
      base: { type: "string", default: process.env.MODELIFY_URL ?? "http://localhost:8787" },
      name: { type: "string" },
      watch: { type: "boolean", default: false },
      every: { type: "string", default: "5" },
    },
  });
  const base = values.base.replace(/\/$/, "");
  const device = thisDevice({ name: values.name, appInstanceId: instanceId() });
  const grant = await requestDeviceCode(base, device);
  console.log(`To sign in "${device.device_name}", open ${grant.verification_uri} and enter the code ${grant.user_code}`);
  console.log(`(or open ${grant.verification_uri_complete})`);
  console.log(`CODE ${grant.user_code} ${grant.verification_uri_complete}`);
  const tokens = await pollForTokens(base, grant, { onPending: () => process.stdout.write(".") });
  console.log(`\nSIGNED IN as ${tokens.user.email} on device ${tokens.device?.name} (${tokens.device?.id})`);
  // The context was chosen on the /device page: a team key's reports count for the user and the team.
  console.log(tokens.team ? `FOR TEAM ${tokens.team.name} (${tokens.team.slug})` : "FOR Personal");

  const every = Math.max(1, Number(values.every) || 5) * 1000;
  let access = tokens.access_token;
  let refresh = tokens.refresh_token;
  /** A call with the access token; an expired one is renewed once with the refresh token. */
  async function authorized<T extends Outcome>(call: (token: string) => Promise<T>): Promise<T> {
    const answer = await call(access);
    if (answer.status !== 401 || endedSession(answer) || !refresh) return answer;
    const renewed = await refreshTokens(base, refresh);
    if (!renewed.body || !("access_token" in renewed.body)) return answer;
    access = renewed.body.access_token;
    refresh = renewed.body.refresh_token;
    return call(access);
  }
  const stop = (answer: Outcome) => {
    console.log(`STOPPED ${answer.status}: ${errorWords(answer)}`);
    process.exitCode = answer.status === 401 ? 0 : 1;
  };
  for (;;) {
    // Ask before the call; refused, wait until the blocking window ends and ask again.
    const claim = await authorized((token) => claimModelCall(base, token));
    if (claim.refused) {
      console.log(`WAITING ${claim.wait} s: ${refusedBy(claim.refused)}; allowed again at ${claim.refused.allowed_at}`);
      // Meanwhile the display is kept current (GET counts nothing), every few seconds; a revoked
      // device stops here rather than at the end of the wait.
      const until = Date.now() + claim.wait * 1000;
      for (let left = until - Date.now(); left > 0; left = until - Date.now()) {
        await pause(Math.min(every, left));
        if (until - Date.now() <= 0) break;
        const shown = await authorized((token) => getEntitlements(base, token));
        if (shown.status !== 200) return stop(shown);
      }
      continue;
    }
    if (claim.status !== 200) return stop(claim);
    // Granted: here the app makes its model call with the user's own provider key, then reports it.
    const answer = await authorized((token) => postUsageReport(base, token));
    if (!answer.body || !("accepted" in answer.body)) return stop(answer);
    console.log(`REPORT accepted (${answer.body.accepted})`);
    if (!values.watch) return;
    await pause(every);
  }
}

function pause(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: Error & { code?: string }) => {
    console.error(`FAILED ${error.code ?? ""} ${error.message}`);
    process.exitCode = 1;
  });
}
