import { describe, expect, it } from "vitest";
import { legacyTabRedirect } from "./layout";

describe("old ?tab= dashboard URLs", () => {
  it("lead to the tab's own route, and unknown tabs to the overview", () => {
    const legacy = (path: string) => legacyTabRedirect(new URL(path, "http://localhost"));
    expect(legacy("/dashboard?tab=billing")).toBe("/dashboard/billing");
    expect(legacy("/dashboard?tab=billing&view=invoices")).toBe("/dashboard/billing?view=invoices");
    expect(legacy("/dashboard?tab=usage&range=30d#top")).toBe("/dashboard/usage?range=30d#top");
    expect(legacy("/dashboard?tab=nope")).toBe("/dashboard");
    expect(legacy("/dashboard?tab=debug")).toBe("/dashboard/admin");
    expect(legacy("/dashboard?tab=overview")).toBe("/dashboard");
    expect(legacy("/dashboard")).toBeNull();
  });
});
