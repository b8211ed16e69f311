import { describe, expect, it } from "vitest";
import { detectDevice } from "./options";

const UA = {
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  safariIpad: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  chromeAndroidPhone: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  chromeAndroidTablet: "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
  windowsPhone: "Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch; NOKIA; Lumia 920)",
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxLinuxArm: "Mozilla/5.0 (X11; Linux aarch64; rv:133.0) Gecko/20100101 Firefox/133.0",
};

describe("detectDevice", () => {
  it.each([
    [UA.safariIphone, "iphone"],
    [UA.chromeIphone, "iphone"],
    [UA.safariIpad, "ipad"],
    [UA.chromeAndroidPhone, "android-phone"],
    [UA.firefoxAndroid, "android-phone"],
    [UA.chromeAndroidTablet, "android-tablet"],
    [UA.windowsPhone, "other"],
  ])("recommends no build on a phone or tablet: %s", (ua, device) => {
    expect(detectDevice(ua)).toEqual({ kind: "mobile", device });
  });

  it.each([
    [UA.chromeWindows, "win-x64"],
    [UA.chromeMac, "mac-apple-silicon"],
    [UA.chromeLinux, "linux-x64"],
    [UA.firefoxLinuxArm, "linux-arm64"],
    // The spec's default when the browser says nothing.
    ["", "win-x64"],
    [null, "win-x64"],
  ])("recommends the computer's build: %s", (ua, optionId) => {
    expect(detectDevice(ua)).toEqual({ kind: "desktop", optionId });
  });
});
