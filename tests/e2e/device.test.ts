// Acceptance (issue 15): the reference desktop client (npm run desktop:demo) asks for a code, a
// signed-in browser approves it on /device, the client reports usage that shows on the overview
// under that device, and revoking the device in the profile makes its next request fail with 401.
// Issue 27: the client claims each call first; the free account's fourth call in a minute is
// refused and the client waits the Retry-After instead of calling.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { requestDeviceCode, thisDevice } from "../../scripts/desktop-demo.ts";
import { hydrated, pageErrors, routerSettled, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

/** The client's output, line by line, and a way to wait for a line. */
function runClient(args: string[]) {
  const child = spawn(process.execPath, ["scripts/desktop-demo.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const waiters: Array<() => void> = [];
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
      resolve(code);
    }),
  );
  /** Waits for output matching `pattern`: looks again at each chunk the client writes, until its deadline or exit. */
  async function line(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
    const deadline = AbortSignal.timeout(timeoutMs);
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (deadline.aborted || ended)
        throw new Error(`No line matching ${pattern}${ended ? " before the client exited" : ` within ${timeoutMs} ms`} in:\n${output}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        deadline.addEventListener("abort", () => resolve(), { once: true });
      });
    }
  }
  return { child, line, exited, output: () => output };
}

test("the desktop client signs in through the browser, reports under its device, and stops when revoked", async ({ newClient, baseURL }) => {
  test.setTimeout(90_000);
  const page = await newClient();
  await signUpAndConfirm(page, uniqueEmail("device"), "Sunny-Day-42");
  await page.waitForURL((url) => url.pathname.startsWith("/dashboard") || url.pathname === "/pricing");

  const deviceName = `E2E Laptop ${randomUUID().slice(0, 6)}`;
  const client = runClient(["--base", baseURL!, "--name", deviceName, "--watch", "--every", "1"]);
  try {
    const [, userCode, link] = await client.line(/^CODE (\S+) (\S+)$/m);

    // The browser shows which device asks, with the code to compare.
    await page.goto(link!);
    const request = page.getByTestId("device-request");
    await expect(request.getByText(deviceName)).toBeVisible();
    await expect(page.getByTestId("device-user-code")).toHaveText(userCode!);
    await expect(request.getByText("Modelify 1.0.0-demo")).toBeVisible();
    // When and from where, so that someone else's code would look foreign (RFC 8628 5.4).
    await expect(page.getByTestId("device-requested")).toHaveText(/^Requested (less than a minute|\d+ minutes?) ago from .+/);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText("Device approved.")).toBeVisible();

    await client.line(/^SIGNED IN as .+ on device (.+) \(/m);
    // A new account is in no team: its key is personal.
    await client.line(/^FOR Personal$/m);
    await client.line(/^REPORT accepted \(1\)$/m);

    // The overview's Recent Activity names the device (the consumer writes within a second or so).
    await page.goto("/dashboard");
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("recent-device").filter({ hasText: deviceName }).first()).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });

    // Claimed before each call: after the free plan's 3 a minute the client waits the Retry-After
    // (the seconds to the minute's end) instead of calling, and keeps its display current meanwhile.
    const [, wait] = await client.line(/^WAITING (\d+) s: minute \(\d+ of 3\) used; allowed again at \S+Z$/m);
    expect(Number(wait)).toBeGreaterThanOrEqual(1);
    expect(Number(wait)).toBeLessThanOrEqual(60);

    // The profile lists the device with its platform, version and this month's use; revoke it.
    await page.goto("/dashboard/profile");
    const row = page.getByTestId("session").filter({ hasText: deviceName });
    await expect(row).toContainText("Modelify 1.0.0-demo");
    await expect(row.getByTestId("device-usage")).toContainText(/\d+ requests? this month/);
    await row.getByRole("button", { name: `Revoke device: ${deviceName}` }).click();
    await page.waitForURL((url) => url.searchParams.get("sessions") === "ended");
    await expect(page.getByTestId("session").filter({ hasText: deviceName })).toHaveCount(0);

    // The client's next request (a claim, or the display it keeps while waiting) is refused with the error it shows, and it stops.
    const [stopped] = await client.line(/^STOPPED 401: .+$/m);
    expect(stopped).toContain("Sign in again");
    expect(await client.exited).toBe(0);
  } finally {
    client.child.kill();
  }
});

// Issue 46: approving (and denying) answers with the page the action made; nothing is looked up
// again, so neither the console nor the network shows a 404 for /device.data?code=…, and no
// lookup is spent on the way.
for (const intent of ["Approve", "Deny"] as const) {
  test(`${intent.toLowerCase()} a device: no 404 in the console or on the network`, async ({ newClient, baseURL }) => {
    const page = await newClient();
    await signUpAndConfirm(page, uniqueEmail(`device-${intent.toLowerCase()}`), "Sunny-Day-42");
    const grant = await requestDeviceCode(baseURL!, thisDevice({ name: `E2E Desktop ${randomUUID().slice(0, 6)}` }));
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    const errors = pageErrors(page);
    await page.goto(grant.verification_uri_complete);
    await hydrated(page);
    await expect(page.getByTestId("device-user-code")).toHaveText(grant.user_code);
    await page.getByRole("button", { name: intent }).click();
    await expect(page.getByText(intent === "Approve" ? "Device approved." : /denied/i).first()).toBeVisible();
    await routerSettled(page);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });
}

// Issue 25, F5: another site's links to /device only fill a code in, so six of them with wrong
// codes spend none of the user's five wrong codes, and the real code still goes through.
test("links to /device from another site only fill the code in: the user's own code still goes through", async ({ newClient, baseURL }) => {
  test.setTimeout(90_000);
  const page = await newClient();
  await signUpAndConfirm(page, uniqueEmail("device-xsite"), "Sunny-Day-42");
  await page.waitForURL((url) => url.pathname.startsWith("/dashboard") || url.pathname === "/pricing");

  // A page on another site: the browser marks what its links open as cross-site.
  const evil = "http://elsewhere.example/";
  await page.context().route(`${evil}**`, (route) => {
    const code = new URL(route.request().url()).searchParams.get("code") ?? "";
    return route.fulfill({ contentType: "text/html", body: `<a id="go" href="${baseURL}/device?code=${code}">Continue</a>` });
  });
  for (const wrong of ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG", "HHHH-HHHH"]) {
    await page.goto(`${evil}?code=${wrong}`);
    await page.locator("#go").click();
    await page.waitForURL((url) => url.pathname === "/device");
    await expect(page.getByLabel("Code")).toHaveValue(wrong);
    await expect(page.getByText("Check that this is the code the Modelify app shows")).toBeVisible();
    await expect(page.getByText("isn't valid")).toHaveCount(0);
  }

  // The real code, from another site too: filled in, and shown once the user continues.
  const grant = await requestDeviceCode(baseURL!, thisDevice({ name: `Cross-site check ${randomUUID().slice(0, 6)}` }));
  await page.goto(`${evil}?code=${grant.user_code}`);
  await page.locator("#go").click();
  await expect(page.getByLabel("Code")).toHaveValue(grant.user_code);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("device-user-code")).toHaveText(grant.user_code);
  await expect(page.getByTestId("device-requested")).toContainText("Requested less than a minute ago from");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Device approved.")).toBeVisible();
});
