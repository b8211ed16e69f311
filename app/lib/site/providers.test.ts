import { describe, expect, it } from "vitest";
import { LOCAL_ENDPOINT, PROVIDERS, providerById } from "./providers";

describe("the API key setup guide", () => {
  it("has fifteen cloud providers and the local option, each complete, with unique ids", () => {
    expect(PROVIDERS.filter((p) => !p.local)).toHaveLength(15);
    expect(new Set(PROVIDERS.map((p) => p.id)).size).toBe(PROVIDERS.length);
    for (const p of PROVIDERS) {
      expect(p.name && p.description && p.pricing && p.rateLimit, p.id).toBeTruthy();
      expect(p.website, p.id).toMatch(/^https:\/\//);
      expect(p.steps.length, p.id).toBeGreaterThanOrEqual(2);
      for (const step of p.steps) if (step.action) expect(step.action.url, p.id).toMatch(/^https:\/\//);
    }
  });

  it("gives every cloud provider a sample key to copy, and the local option none, on port 11434", () => {
    for (const p of PROVIDERS.filter((x) => !x.local))
      expect(
        p.steps.some((s) => s.sampleKey),
        p.id,
      ).toBe(true);
    const local = providerById("local")!;
    expect(local.steps.some((s) => s.sampleKey)).toBe(false);
    expect(LOCAL_ENDPOINT).toBe("http://localhost:11434");
    expect(local.steps.map((s) => s.description).join(" ")).toContain(LOCAL_ENDPOINT);
  });
});
