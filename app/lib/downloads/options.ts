// The six installer builds the site offers, with the spec's ids, what each platform needs, and how
// a build's version and file are named. Sizes and published versions are not here: they come from
// the releases table. Imports nothing, so that `npm run release:publish` (Node) loads it as it is.

export const PLATFORMS = ["windows", "mac", "linux"] as const;
export type Platform = (typeof PLATFORMS)[number];

const ARCHITECTURES = ["x64", "x86", "intel", "apple-silicon", "arm64"] as const;
type Architecture = (typeof ARCHITECTURES)[number];

export type DownloadOption = {
  id: string;
  platform: Platform;
  arch: Architecture;
  name: string;
  description: string;
  /** The spec's recommended build for its platform. */
  recommended: boolean;
  /** File name extension of the installer. */
  extension: string;
};

export const DOWNLOAD_OPTIONS: readonly DownloadOption[] = [
  {
    id: "win-x64",
    platform: "windows",
    arch: "x64",
    name: "Windows x64",
    description: "64-bit Windows 10 and 11 (most PCs)",
    recommended: true,
    extension: "msi",
  },
  { id: "win-x86", platform: "windows", arch: "x86", name: "Windows x86", description: "32-bit Windows 10", recommended: false, extension: "msi" },
  { id: "mac-intel", platform: "mac", arch: "intel", name: "macOS Intel", description: "Macs with an Intel processor", recommended: false, extension: "dmg" },
  {
    id: "mac-apple-silicon",
    platform: "mac",
    arch: "apple-silicon",
    name: "macOS Apple Silicon",
    description: "Macs with an M-series chip",
    recommended: true,
    extension: "dmg",
  },
  {
    id: "linux-x64",
    platform: "linux",
    arch: "x64",
    name: "Linux x64 (AppImage)",
    description: "64-bit Intel and AMD processors",
    recommended: true,
    extension: "AppImage",
  },
  {
    id: "linux-arm64",
    platform: "linux",
    arch: "arm64",
    name: "Linux arm64 (AppImage)",
    description: "64-bit ARM processors",
    recommended: false,
    extension: "AppImage",
  },
];

export const PLATFORM_LABELS: Record<Platform, string> = { windows: "Windows", mac: "macOS", linux: "Linux" };

/** The spec's default OS when the browser's cannot be told. */
const DEFAULT_PLATFORM: Platform = "windows";

export const SYSTEM_REQUIREMENTS: Record<Platform, string[]> = {
  windows: ["Windows 10 or 11", "4 GB RAM (8 GB recommended)", "2 GB free disk space", "Internet connection for AI providers"],
  mac: ["macOS 12 Monterey or later", "4 GB RAM (8 GB recommended)", "2 GB free disk space", "Internet connection for AI providers"],
  linux: ["Ubuntu 20.04, Fedora 36 or a similar distribution", "4 GB RAM (8 GB recommended)", "2 GB free disk space", "Internet connection for AI providers"],
};

export function findOption(platform: string, arch: string): DownloadOption | undefined {
  return DOWNLOAD_OPTIONS.find((o) => o.platform === platform && o.arch === arch);
}

export function optionById(id: string): DownloadOption | undefined {
  return DOWNLOAD_OPTIONS.find((o) => o.id === id);
}

export function optionsFor(platform: Platform): DownloadOption[] {
  return DOWNLOAD_OPTIONS.filter((o) => o.platform === platform);
}

/** Phones and tablets, which run none of the builds: what the pages call the device they were opened on. */
export const MOBILE_DEVICES = {
  iphone: "an iPhone",
  ipad: "an iPad",
  "android-phone": "an Android phone",
  "android-tablet": "an Android tablet",
  other: "a phone or tablet",
} as const;
export type MobileDevice = keyof typeof MOBILE_DEVICES;

/** What the pages recommend: a build for a desktop system, or none on a phone or tablet. */
export type DetectedDevice = { kind: "desktop"; optionId: string } | { kind: "mobile"; device: MobileDevice };

// Tested before any desktop system: iPhones and iPads say "like Mac OS X", Android says "Linux",
// and Windows phones say "Windows".
const MOBILE_SYSTEMS: Array<[RegExp, MobileDevice | ((ua: string) => MobileDevice)]> = [
  [/\b(?:iPhone|iPod)\b/, "iphone"],
  [/\biPad\b/, "ipad"],
  // Android phones' browsers say "Mobile"; tablets' do not.
  [/\bAndroid\b/, (ua) => (/\bMobile\b/.test(ua) ? "android-phone" : "android-tablet")],
  [/\b(?:Windows Phone|IEMobile|BlackBerry|BB10|webOS|KAIOS|Opera Mini|Mobile)\b/i, "other"],
];

/** The phone or tablet a User-Agent names, or null for a computer (or a User-Agent that says nothing). */
function mobileDevice(ua: string): MobileDevice | null {
  for (const [pattern, device] of MOBILE_SYSTEMS) if (pattern.test(ua)) return typeof device === "function" ? device(ua) : device;
  return null;
}

/**
 * The visitor's OS from the User-Agent (server side). Apple Silicon cannot be told from a Mac's
 * User-Agent, so Macs get the spec's recommended build.
 */
function detectPlatform(ua: string): Platform {
  if (/Windows/i.test(ua)) return "windows";
  if (/Macintosh|Mac OS X/i.test(ua)) return "mac";
  if (/Linux|X11/i.test(ua)) return "linux";
  return DEFAULT_PLATFORM;
}

/** The architecture to suggest: ARM Linux from the User-Agent, otherwise the platform's recommended build. */
function detectOption(ua: string): DownloadOption {
  const platform = detectPlatform(ua);
  if (platform === "linux" && /aarch64|arm64/i.test(ua)) return optionById("linux-arm64")!;
  return optionsFor(platform).find((o) => o.recommended)!;
}

/**
 * The build to recommend for the device behind a User-Agent, or the phone or tablet it is: no
 * installer runs there, so none is recommended. An iPad that asks for the desktop site says
 * "Macintosh"; the page tells it apart in the browser (it has a touch screen).
 */
export function detectDevice(userAgent: string | null | undefined): DetectedDevice {
  const ua = (userAgent ?? "").slice(0, 500);
  const device = mobileDevice(ua);
  if (device) return { kind: "mobile", device };
  return { kind: "desktop", optionId: detectOption(ua).id };
}

/** The installer's file name, e.g. Modelify-1.4.0-win-x64.msi. */
export function installerFileName(option: DownloadOption, version: string): string {
  return `Modelify-${version}-${option.id}.${option.extension}`;
}

/** Where a build's file is kept in R2. */
export const releaseKey = (option: DownloadOption, version: string) => `releases/${version}/${installerFileName(option, version)}`;

/** Semantic versions, optionally with a pre-release suffix: 1.4.0, 1.0.0-demo, 2.0.0-rc.1. */
export const VERSION_PATTERN = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
export const VERSION_MAX_LENGTH = 40;
