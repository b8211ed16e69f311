// The public client's identification (RFC 6749 2.3.1) and the RFC 8414 metadata.
import { describe, expect, it } from "vitest";
import { DEVICE_CODE_GRANT } from "./device-codes";
import { authorizationServerMetadata, CLIENT_ERRORS, identifyClient, issuerOf } from "./oauth";

const basic = (user: string, password = "") => `Basic ${btoa(`${user}:${password}`)}`;

describe("identifyClient", () => {
  it("takes the client id from the body, from HTTP Basic with an empty password, or both when they agree", () => {
    expect(identifyClient(null, "modelify-desktop")).toEqual({ ok: true, clientId: "modelify-desktop" });
    expect(identifyClient(basic("modelify-desktop"), undefined)).toEqual({ ok: true, clientId: "modelify-desktop" });
    expect(identifyClient(`basic   ${btoa("modelify-desktop:")}`, undefined)).toEqual({ ok: true, clientId: "modelify-desktop" });
    expect(identifyClient(basic("modelify-desktop"), "modelify-desktop")).toEqual({ ok: true, clientId: "modelify-desktop" });
    // Form-encoded before base64 (RFC 6749 2.3.1).
    expect(identifyClient(basic("modelify%2Ddesktop"), undefined)).toEqual({ ok: true, clientId: "modelify-desktop" });
  });

  it("says nothing when the client did not name itself, and leaves other schemes alone", () => {
    expect(identifyClient(null, undefined)).toEqual({ ok: true, clientId: null });
    expect(identifyClient("Bearer abc.def.ghi", undefined)).toEqual({ ok: true, clientId: null });
  });

  it("refuses another client, a secret, a malformed header and a disagreement", () => {
    for (const [authorization, body] of [
      [null, "someone-else"],
      [basic("someone-else"), undefined],
      [basic("MODELIFY-DESKTOP"), undefined],
    ] as const) {
      expect(identifyClient(authorization, body)).toMatchObject({ ok: false, error: "invalid_client" });
    }
    expect(identifyClient(basic("modelify-desktop", "s3cret"), undefined)).toEqual({ ok: false, error: "invalid_client", description: CLIENT_ERRORS.secret });
    for (const header of ["Basic", "Basic !!!", `Basic ${btoa("no-colon")}`, `Basic ${btoa(":")}`, `Basic ${btoa("%E0%A4%A:")}`, "Basic /w==:"]) {
      expect(identifyClient(header, undefined), header).toEqual({ ok: false, error: "invalid_client", description: CLIENT_ERRORS.malformedBasic });
    }
    expect(identifyClient(basic("modelify-desktop"), "other")).toEqual({ ok: false, error: "invalid_request", description: CLIENT_ERRORS.mismatch });
    expect(identifyClient(null, 42)).toEqual({ ok: false, error: "invalid_request", description: CLIENT_ERRORS.notText });
  });
});

describe("authorizationServerMetadata", () => {
  it("names the issuer's endpoints, the grants and a public client", () => {
    const issuer = issuerOf("https://modelify.example/");
    expect(issuer).toBe("https://modelify.example");
    expect(authorizationServerMetadata(issuer)).toEqual({
      issuer: "https://modelify.example",
      device_authorization_endpoint: "https://modelify.example/api/v1/auth/device",
      token_endpoint: "https://modelify.example/api/v1/auth/token",
      grant_types_supported: [DEVICE_CODE_GRANT, "refresh_token", "password"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["none"],
    });
  });
});
