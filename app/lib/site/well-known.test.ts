// Which unknown paths are pages (they go home) and which are files or documents (404), and security.txt.
import { describe, expect, it } from "vitest";
import { isPagePath, securityTxt } from "./well-known";

describe("isPagePath", () => {
  it("takes extensionless paths for pages", () => {
    for (const path of ["/", "/waitlist", "/no/such/page", "/old.site/page", "/%E0%A4%A/%ZZ"]) expect(isPagePath(path), path).toBe(true);
  });

  it("takes files and dot-segments for something else", () => {
    for (const path of ["/favicon.ico", "/x.php", "/assets/gone.js", "/.well-known/unknown", "/.env", "/.git/HEAD", "/a/..%2f..%2fetc"]) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});

describe("securityTxt", () => {
  it("has the RFC 9116 fields, expiring in less than a year from now", () => {
    const now = Date.UTC(2026, 10, 27, 10, 30, 15, 250);
    expect(securityTxt("https://modelify.example", now)).toBe(
      [
        "Contact: mailto:support@modelify.dev",
        "Expires: 2027-11-26T10:30:15Z",
        "Preferred-Languages: en",
        "Canonical: https://modelify.example/.well-known/security.txt",
        "",
      ].join("\n"),
    );
  });
});
