import { describe, expect, it } from "vitest";
import { readDownloadAnswer } from "./answer";

const json = (body: unknown, status = 200, statusText = "OK") => new Response(JSON.stringify(body), { status, statusText });

describe("reading the download answer", () => {
  it("gives the link of a successful answer", async () => {
    expect(await readDownloadAnswer(json({ success: true, download_url: "https://x/downloads/file/t" }))).toEqual({
      ok: true,
      url: "https://x/downloads/file/t",
    });
  });
  it("shows the server's error, else 'Download failed'", async () => {
    expect(await readDownloadAnswer(json({ success: false, error: "Please sign in to download" }, 401, "Unauthorized"))).toEqual({
      ok: false,
      error: "Please sign in to download",
    });
    expect(await readDownloadAnswer(json({ success: false }, 500))).toEqual({ ok: false, error: "Download failed" });
    expect(await readDownloadAnswer(json({}, 502))).toEqual({ ok: false, error: "Download failed" });
  });
  it("refuses an answer without success or download_url", async () => {
    expect(await readDownloadAnswer(json({ success: true }))).toEqual({ ok: false, error: "Invalid download response" });
    expect(await readDownloadAnswer(json({ download_url: "https://x" }))).toEqual({ ok: false, error: "Invalid download response" });
  });
  it("names the status when the body is not JSON", async () => {
    expect(await readDownloadAnswer(new Response("<html>", { status: 502, statusText: "Bad Gateway" }))).toEqual({
      ok: false,
      error: "Server error: 502 Bad Gateway",
    });
  });
});
