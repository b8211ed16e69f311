import { describe, expect, it } from "vitest";
import { deviceLabel } from "./user-agent";

const UA = {
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeOs: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  safariIpad: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  firefoxWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  firefoxLinux: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  firefoxIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
  edgeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  operaMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  headless: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  electron:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Modelify/2.0.1 Chrome/130.0.6723.191 Electron/33.3.1 Safari/537.36",
};

describe("deviceLabel", () => {
  it.each([
    [UA.chromeMac, "Chrome on macOS"],
    [UA.chromeWindows, "Chrome on Windows"],
    [UA.chromeAndroid, "Chrome on Android"],
    [UA.chromeIphone, "Chrome on iPhone"],
    [UA.chromeLinux, "Chrome on Linux"],
    [UA.chromeOs, "Chrome on ChromeOS"],
    [UA.safariIphone, "Safari on iPhone"],
    [UA.safariIpad, "Safari on iPad"],
    [UA.safariMac, "Safari on macOS"],
    [UA.firefoxWindows, "Firefox on Windows"],
    [UA.firefoxLinux, "Firefox on Linux"],
    [UA.firefoxIphone, "Firefox on iPhone"],
    [UA.edgeWindows, "Edge on Windows"],
    [UA.operaMac, "Opera on macOS"],
    [UA.headless, "Headless Chrome on Linux"],
  ])("names %s", (ua, label) => {
    expect(deviceLabel(ua)).toBe(label);
  });

  it("names the desktop app with its version and platform when it says them", () => {
    expect(deviceLabel("Modelify/1.4.2 (macOS 14.5; arm64)", "desktop")).toBe("Modelify desktop app 1.4.2 on macOS");
    expect(deviceLabel("Modelify/1.4.2 (win32)", "desktop")).toBe("Modelify desktop app 1.4.2 on Windows");
    expect(deviceLabel("Modelify/0.9.0-beta.1 (linux; x64)", "desktop")).toBe("Modelify desktop app 0.9.0-beta.1 on Linux");
    expect(deviceLabel("Modelify/1.4.2", "desktop")).toBe("Modelify desktop app 1.4.2");
    expect(deviceLabel("Modelify/1.4.2 (Plan 9)", "desktop")).toBe("Modelify desktop app 1.4.2");
    // Inside an Electron User-Agent the platform comes from the operating system part.
    expect(deviceLabel(UA.electron, "desktop")).toBe("Modelify desktop app 2.0.1 on Windows");
  });

  it("calls a desktop session the desktop app whatever its HTTP library sends", () => {
    expect(deviceLabel("node", "desktop")).toBe("Modelify desktop app");
    expect(deviceLabel(null, "desktop")).toBe("Modelify desktop app");
  });

  it("says Unknown device when the header names no browser", () => {
    for (const ua of [null, undefined, "", "curl/8.5.0", "python-requests/2.32", "Mozilla/5.0", "x".repeat(5000)]) {
      expect(deviceLabel(ua)).toBe("Unknown device");
    }
  });

  it("keeps a made-up desktop version short and harmless", () => {
    expect(deviceLabel(`Modelify/1.${"9".repeat(50)} (macOS)`, "desktop")).toBe("Modelify desktop app 1.999999999999999999");
    expect(deviceLabel("Modelify/<script> (macOS)", "desktop")).toBe("Modelify desktop app");
  });
});
