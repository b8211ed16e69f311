// Whether a webhook URL may be POSTed to (ADR 0033): HTTPS, no credentials, and no host that is
// this machine, a private network or a name only a private resolver knows. Checked when a webhook
// is added and again before every delivery. A public name that resolves to a private address
// cannot be caught here (a Worker has no DNS lookup); Cloudflare's outbound fetch does not reach
// private networks from its edge, and deliveries follow no redirect.
import { WEBHOOKS } from "../constants";

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const PRIVATE_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|home\.arpa|arpa)$/;

// [first address as a 32-bit number, prefix length] of IPv4 ranges that are not the public internet.
const PRIVATE_V4: Array<[string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

function v4Number(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function isPrivateV4(address: string): boolean {
  const n = v4Number(address);
  if (n === null) return false;
  return PRIVATE_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base)! / 2 ** (32 - bits)));
}

/** An IPv6 literal's eight 16-bit groups (the URL parser has already written it in its short form). */
function v6Groups(address: string): number[] | null {
  const [head = "", tail] = address.split("::");
  const part = (text: string) => (text === "" ? [] : text.split(":").map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function isPrivateV6(address: string): boolean {
  const g = v6Groups(address);
  // Not an address the parser would write: refused rather than guessed at.
  if (g === null) return true;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0]! & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  // An IPv4 address inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or NAT64 (64:ff9b::/96).
  const embedded = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  const mapped = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  return (mapped || nat64) && isPrivateV4(embedded);
}

/** The URL as it will be called, or why it may not be. */
export function checkWebhookUrl(input: string): WebhookUrlCheck {
  const text = input.trim();
  if (text.length > WEBHOOKS.urlMaxLength) return { ok: false, message: `Webhook URLs are limited to ${WEBHOOKS.urlMaxLength} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "Enter the webhook's full address, such as https://hooks.example.com/modelify" };
  }
  if (url.protocol !== "https:") return { ok: false, message: "Webhook URLs must start with https://" };
  if (url.username || url.password) return { ok: false, message: "Webhook URLs cannot carry a user name or password" };
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const privateMessage = "Webhook URLs must point to a public internet address, not to this machine or a private network";
  if (host.startsWith("[")) return isPrivateV6(host.slice(1, -1)) ? { ok: false, message: privateMessage } : { ok: true, url: url.href };
  if (v4Number(host) !== null) return isPrivateV4(host) ? { ok: false, message: privateMessage } : { ok: true, url: url.href };
  // A name with no dot (an intranet host) or a private suffix only a private resolver answers for.
  if (!host.includes(".") || PRIVATE_NAME.test(host)) return { ok: false, message: privateMessage };
  return { ok: true, url: url.href };
}
