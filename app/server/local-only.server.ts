// Development-only pages (the mail outbox shows everyone's sign-up and reset links) answer only
// on the developer's own machine: a non-production environment, a loopback host name and a
// loopback client address. A staging deployment without a mail provider gets a 404.
import { data } from "react-router";
import { isLocal } from "~/lib/config";
import type { AppEnv } from "./env.server";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function isLoopbackAddress(ip: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip) || ip === "::1" || ip === "::ffff:127.0.0.1";
}

function isLocalMachineRequest(request: Request, env: AppEnv): boolean {
  if (!isLocal(env)) return false;
  if (!LOOPBACK_HOSTS.has(new URL(request.url).hostname)) return false;
  // workerd sets CF-Connecting-IP from the socket locally; Cloudflare sets it at the edge.
  const ip = request.headers.get("CF-Connecting-IP");
  return ip === null || isLoopbackAddress(ip);
}

export function requireLocalMachine(request: Request, env: AppEnv): void {
  if (!isLocalMachineRequest(request, env)) throw data(null, { status: 404 });
}
