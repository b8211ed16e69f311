// The pieces every operation of the document is made of: request bodies with their examples,
// answers with their schemas and headers, and the answers every operation shares.
import type { z } from "../zod";
import { schemaOf, scopeErrorBody } from "./schemas";

type JsonSchema = Record<string, unknown>;
export type Examples = Record<string, { summary: string; value: unknown }>;
type Header = { description: string; required?: boolean; schema: JsonSchema };

/** The API's plain { "error": "…" } (components.schemas.Error). */
export const ERROR = { $ref: "#/components/schemas/Error" };
/** 503: every route of the API, when the Worker is not configured (routes/api/layout.ts). */
export const UNAVAILABLE = { $ref: "#/components/responses/Unavailable" };

const asJsonSchema = (schema: z.ZodType | JsonSchema, io: "input" | "output") =>
  "_zod" in schema ? schemaOf(schema as z.ZodType, io) : (schema as JsonSchema);

/** A JSON request body, from the zod schema the route validates with. */
export function jsonRequest(schema: z.ZodType | JsonSchema, examples: Examples) {
  return { required: true, content: { "application/json": { schema: asJsonSchema(schema, "input"), examples } } };
}

/** The OAuth endpoints read RFC 6749's form encoding as well as JSON. */
export function oauthRequest(json: { schema: JsonSchema; examples: Examples }, form: { schema: JsonSchema; examples: Examples }) {
  return { required: true, content: { "application/json": json, "application/x-www-form-urlencoded": form } };
}

/** An answer: what it means, and its JSON body's schema (zod, or JSON Schema as it is). */
export function answer(description: string, schema?: z.ZodType | JsonSchema, headers?: Record<string, Header>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    ...(schema ? { content: { "application/json": { schema: asJsonSchema(schema, "output") } } } : {}),
  };
}

export const RETRY_AFTER: Header = {
  description: "Seconds to wait before trying again (at least 1)",
  required: true,
  schema: { type: "integer", minimum: 1 },
};
/** Every bearer 401 says how to authenticate (RFC 6750 3). */
export const BEARER_CHALLENGE: Header = {
  description: 'Bearer, with error="invalid_token" when a token was sent but is not valid (RFC 6750 3)',
  required: true,
  schema: { type: "string", pattern: "^Bearer" },
};
/** RFC 6749 5.1: token answers are never stored by a cache. */
export const TOKEN_CACHE_HEADERS: Record<string, Header> = {
  "Cache-Control": { description: "no-store (RFC 6749 5.1)", required: true, schema: { type: "string", const: "no-store" } },
  Pragma: { description: "no-cache (RFC 6749 5.1), for HTTP/1.0 caches", schema: { type: "string", const: "no-cache" } },
};

/** 413 and 415: the body's size and type, checked before anything else is read. */
export function bodyRefusals(maxBytes: number, accepted: string, schema: z.ZodType | JsonSchema = ERROR) {
  return {
    "413": answer(`A body over ${maxBytes} bytes`, schema),
    "415": answer(`A Content-Type other than ${accepted}`, schema),
  };
}

/** What a personal API key gets from every bearer route but the read API's (ADR 0034). */
export const personalKey403 = () =>
  answer("A personal API key: it only reads usage (GET /api/v1/usage/summary and /requests); use the desktop app's sign-in", scopeErrorBody, {
    "WWW-Authenticate": BEARER_CHALLENGE,
  });
