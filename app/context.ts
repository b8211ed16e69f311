import { createContext } from "react-router";
import type { AuthState } from "./lib/auth/session.server";

export type CloudflareContext = { env: Env; ctx: ExecutionContext };

export const cloudflareContext = createContext<CloudflareContext>();

/** The signed-in user (or null), resolved once per request by the root middleware. */
export const authContext = createContext<AuthState>({ user: null, session: null });

/** This response's CSP nonce: the inline scripts React Router renders carry it. */
export const nonceContext = createContext<string>("");
