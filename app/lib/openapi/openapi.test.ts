// The document's own promises, checked without a site: the typed client was generated from this
// very document, and its patterns are in a syntax JSON Schema tools in every language read.
import { describe, expect, it } from "vitest";
import generatedClient from "../../../scripts/api/openapi.d.ts?raw";
import { buildOpenApi } from "./index";

const served = JSON.stringify(buildOpenApi());

async function sha256(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every value of `key` anywhere in the document. */
function valuesOf(node: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) valuesOf(item, key, found);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) found.push(v);
      valuesOf(v, key, found);
    }
  }
  return found;
}

describe("the OpenAPI document", () => {
  it("is the one the typed client (scripts/api/openapi.d.ts) was generated from: else run `npm run api:client`", async () => {
    const recorded = /^\/\/ openapi-sha256: ([0-9a-f]{64})$/m.exec(generatedClient)?.[1];
    expect(recorded, "the generated file records the document's SHA-256").toBeDefined();
    expect(recorded, "the document changed since the client was generated: run `npm run api:client` and commit scripts/api/openapi.d.ts").toBe(
      await sha256(served),
    );
  });

  it("uses only regular expressions that tools outside JavaScript read: no \\p{…}, valid without the u flag", () => {
    const patterns = valuesOf(buildOpenApi(), "pattern") as string[];
    expect(patterns.length).toBeGreaterThan(5);
    for (const pattern of patterns) {
      expect(pattern).not.toMatch(/\\[pP]\{/);
      expect(() => new RegExp(pattern), pattern).not.toThrow();
    }
  });

  it("names every operation, and says which take no token", () => {
    const doc = buildOpenApi();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    const publicOnes = operations.filter(({ op }) => op.security.length === 0).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(publicOnes.sort()).toEqual(["GET /api/v1/health", "POST /api/v1/auth/device", "POST /api/v1/auth/refresh", "POST /api/v1/auth/token"]);
    expect(doc.info.license.url).toBe("/legal/terms");
  });
});
