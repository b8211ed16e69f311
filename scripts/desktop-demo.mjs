// The desktop team's living example of signing in through the browser (RFC 8628 device
// authorization, docs/decisions/0018-desktop-device-authorization.md), then reporting usage.
//
//   npm run desktop:demo                      against http://localhost:8787 (npm start)
//   npm run desktop:demo -- --watch           then a report every 5 s until the key stops working
//   npm run desktop:demo -- --base URL --name "Ada's laptop" --every 2
//
// It prints the code and the address to open; approve it in a browser signed in to Modelify.
// The functions are exported for the end-to-end test, which drives this same client.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

export const CLIENT_ID = "modelify-desktop";
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

const PLATFORMS = { win32: "windows", darwin: "macos" };

/** What a real app sends about itself: its platform, version and a per-installation id. */
export function thisDevice({ name = hostname(), appVersion = "1.0.0-demo", appInstanceId } = {}) {
  return { device_name: name, platform: PLATFORMS[process.platform] ?? "linux", app_version: appVersion, app_instance_id: appInstanceId ?? randomUUID() };
}

/** A form post, as OAuth clients send (RFC 6749 appendix B); the answer's JSON and status. */
async function postForm(url, fields) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  return { status: response.status, body: await response.json() };
}

/** Step 1: a device code for polling and a user code for the person. */
export async function requestDeviceCode(base, device) {
  const { status, body } = await postForm(`${base}/api/v1/auth/device`, { client_id: CLIENT_ID, ...device });
  if (status !== 200) throw new Error(`Could not start the sign-in (${status}): ${body.error_description ?? body.error}`);
  return body;
}

/**
 * Step 2: poll until the person approves or denies, or the code expires. Waits the interval
 * between polls, and 5 s more after every slow_down, as RFC 8628 3.5 asks.
 */
export async function pollForTokens(base, grant, { sleep = (ms) => new Promise((r) => setTimeout(r, ms)), onPending } = {}) {
  let interval = grant.interval ?? 5;
  const deadline = Date.now() + grant.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const { status, body } = await postForm(`${base}/api/v1/auth/token`, {
      grant_type: DEVICE_CODE_GRANT,
      device_code: grant.device_code,
      client_id: CLIENT_ID,
    });
    if (status === 200) return body;
    if (body.error === "authorization_pending") {
      onPending?.();
      continue;
    }
    if (body.error === "slow_down") {
      interval = body.interval ?? interval + 5;
      continue;
    }
    // access_denied, expired_token, invalid_grant: the sign-in is over; start again.
    throw Object.assign(new Error(body.error_description ?? body.error), { code: body.error });
  }
  throw Object.assign(new Error("The code expired. Start the sign-in again."), { code: "expired_token" });
}

/** Step 3: report a model call with the device's key. */
export async function postUsageReport(base, accessToken, overrides = {}) {
  const report = {
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
  const response = await fetch(`${base}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(report),
  });
  return { status: response.status, body: await response.json() };
}

/** The access token lives 15 minutes: the refresh token (single use) gets the next pair. */
export async function refreshTokens(base, refreshToken) {
  const response = await fetch(`${base}/api/v1/auth/refresh`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return { status: response.status, body: await response.json() };
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
  console.log(`\nSIGNED IN as ${tokens.user.email} on device ${tokens.device.name} (${tokens.device.id})`);

  const every = Math.max(1, Number(values.every) || 5) * 1000;
  let access = tokens.access_token;
  let refresh = tokens.refresh_token;
  for (;;) {
    let answer = await postUsageReport(base, access);
    if (answer.status === 401 && answer.body.code !== "session_ended" && refresh) {
      // An expired access token: renew once, then try the report again.
      const renewed = await refreshTokens(base, refresh);
      if (renewed.status === 200) {
        access = renewed.body.access_token;
        refresh = renewed.body.refresh_token ?? refresh;
        answer = await postUsageReport(base, access);
      }
    }
    if (answer.status === 202) console.log(`REPORT accepted (${answer.body.accepted})`);
    else {
      console.log(`STOPPED ${answer.status}: ${answer.body.error}`);
      process.exitCode = answer.status === 401 ? 0 : 1;
      return;
    }
    if (!values.watch) return;
    await new Promise((r) => setTimeout(r, every));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(`FAILED ${error.code ?? ""} ${error.message}`);
    process.exitCode = 1;
  });
}
