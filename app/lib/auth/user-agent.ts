// A short, human name for the device behind a session ("Chrome on macOS"), read from the
// User-Agent it signed in with. Only what the header plainly says: no version sniffing, no
// guessing; anything unrecognised is an "Unknown device".

const UNKNOWN = "Unknown device";
const DESKTOP_APP = "Modelify desktop app";

// Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari", and every iPhone
// browser runs on WebKit and says "Safari".
const BROWSERS: Array<[RegExp, string]> = [
  [/\b(?:Edg|EdgA|EdgiOS)\//, "Edge"],
  [/\b(?:OPR|OPiOS)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  // Automated browsers say so; worth showing the user as such.
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

// iPhones and iPads say "like Mac OS X", and Android says "Linux": test them first.
const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\b(?:Macintosh|Mac OS X)\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

// The desktop app's platform word: Node's process.platform names and the plain names.
const DESKTOP_PLATFORMS: Array<[RegExp, string]> = [
  [/^(?:darwin|mac|macos|os x)\b/i, "macOS"],
  [/^(?:win32|win64|windows)\b/i, "Windows"],
  [/^linux\b/i, "Linux"],
];

function firstMatch(table: Array<[RegExp, string]>, text: string): string | null {
  for (const [pattern, name] of table) if (pattern.test(text)) return name;
  return null;
}

/**
 * The desktop app sends `Modelify/<version> (<platform>[; …])`, alone or inside an Electron
 * User-Agent: "Modelify desktop app 1.4.2 on macOS". Returns null for any other User-Agent.
 */
function desktopLabel(ua: string): string | null {
  const match = /\bModelify\/([0-9][0-9A-Za-z.+-]{0,19})(?:\s*\(([^)]{0,100})\))?/.exec(ua);
  if (!match) return null;
  const platform = firstMatch(DESKTOP_PLATFORMS, (match[2] ?? "").trim()) ?? firstMatch(SYSTEMS, ua);
  return `${DESKTOP_APP} ${match[1]}${platform ? ` on ${platform}` : ""}`;
}

export function deviceLabel(userAgent: string | null | undefined, client: "web" | "desktop" = "web"): string {
  const ua = (userAgent ?? "").slice(0, 300);
  const desktop = desktopLabel(ua);
  if (desktop) return desktop;
  // The session came from the desktop token endpoint, whatever its HTTP library calls itself.
  if (client === "desktop") return DESKTOP_APP;
  const browser = firstMatch(BROWSERS, ua);
  if (!browser) return UNKNOWN;
  const system = firstMatch(SYSTEMS, ua);
  return system ? `${browser} on ${system}` : browser;
}
