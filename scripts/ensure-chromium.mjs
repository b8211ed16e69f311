// The browser tests use Debian's Chromium (Playwright cannot download browsers here).
// Installs it when it can (root with apt-get), else says exactly what to run.
import { existsSync } from "node:fs";
import { run } from "./lib.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("Chromium is missing: installing Debian's chromium package (about 35 s)...");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    await run("apt-get", ["update", "-qq"], { env });
    await run("apt-get", ["install", "-y", "-qq", "chromium"], { env, stdio: ["ignore", "ignore", "inherit"] });
    if (existsSync(CHROMIUM)) return CHROMIUM;
  }
  console.error(
    [
      `Chromium was not found at ${CHROMIUM}. The browser tests need it.`,
      "On Debian or Ubuntu run:  sudo apt-get update && sudo apt-get install -y chromium",
      "Or point CHROMIUM_PATH at an existing Chromium or Chrome binary.",
    ].join("\n"),
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await ensureChromium());
