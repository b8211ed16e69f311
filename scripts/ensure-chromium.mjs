// Debian's Chromium builds (Playwright cannot download browsers here), in two packages:
// - "chromium", the whole browser, for what must see the page as a visitor's browser draws it
//   (Lighthouse, the screenshots);
// - "headless-shell", Chromium's headless shell (Debian's chromium-headless-shell, the same
//   version), for the browser tests: Playwright's own default for headless Chromium, and a third
//   lighter on this 2-core machine (ADR 0040).
// Installs the one asked for when it can (root with apt-get), else says exactly what to run.
import { existsSync } from "node:fs";
import { run } from "./lib.mjs";

const BROWSERS = {
  chromium: { path: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", pkg: "chromium", env: "CHROMIUM_PATH" },
  "headless-shell": {
    path: process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell",
    pkg: "chromium-headless-shell",
    env: "CHROMIUM_HEADLESS_SHELL_PATH",
  },
};

/**
 * The path of the build asked for, installed first when it is missing and this process may; for
 * the headless shell, the whole browser when only that one is here.
 */
export async function ensureChromium(kind = "chromium") {
  const browser = BROWSERS[kind];
  if (!browser) throw new Error(`No Chromium build named ${kind}`);
  if (existsSync(browser.path)) return browser.path;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log(`${browser.pkg} is missing: installing Debian's ${browser.pkg} package (about 35 s)...`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    await run("apt-get", ["update", "-qq"], { env });
    await run("apt-get", ["install", "-y", "-qq", browser.pkg], { env, stdio: ["ignore", "ignore", "inherit"] });
    if (existsSync(browser.path)) return browser.path;
  }
  // The whole browser runs the same tests in its own headless mode, a third slower (ADR 0040).
  if (kind === "headless-shell" && existsSync(BROWSERS.chromium.path)) {
    console.warn(
      `${browser.pkg} was not found at ${browser.path}: the browser tests run ${BROWSERS.chromium.path} instead, about a third slower. Install it with:  sudo apt-get install -y ${browser.pkg}`,
    );
    return BROWSERS.chromium.path;
  }
  console.error(
    [
      `${browser.pkg} was not found at ${browser.path}. ${kind === "chromium" ? "Lighthouse and the screenshots" : "The browser tests"} need it.`,
      `On Debian or Ubuntu run:  sudo apt-get update && sudo apt-get install -y ${browser.pkg}`,
      `Or point ${browser.env} at an existing build of it.`,
    ].join("\n"),
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await ensureChromium(process.argv[2]));
