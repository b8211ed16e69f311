import { describe, expect, it } from "vitest";
import { USERNAME } from "../constants";
import { containsProfanity, daysUntilUsernameChange, usernameProblem } from "./username";
import { isAcceptableWebsite, websiteHref } from "./form-fields";

describe("username rules", () => {
  it.each([
    ["ab", "Username must be at least 3 characters long"],
    ["abcdefghijklmnopqrstu", "Username must be 20 characters or less"],
    ["ada.lovelace", "Username can only contain letters, numbers, underscores, and hyphens"],
    ["ada lovelace", "Username can only contain letters, numbers, underscores, and hyphens"],
    ["ädä", "Username can only contain letters, numbers, underscores, and hyphens"],
    ["FuckThis", "Username contains inappropriate language"],
    ["sh1t_happens", "Username contains inappropriate language"],
    ["big_ass", "Username contains inappropriate language"],
    ["site-admin", "Username cannot contain reserved terms"],
    ["MODeler", "Username cannot contain reserved terms"],
    ["helper", "Username cannot contain reserved terms"],
    ["tech_support", "Username cannot contain reserved terms"],
  ])("%s → %s", (name, problem) => {
    expect(usernameProblem(name)).toBe(problem);
  });

  it.each(["ada", "Ada_Lovelace", "grace-hopper-1906", "classic_cars", "title_page", "a".repeat(20)])("accepts %s", (name) => {
    expect(usernameProblem(name)).toBeNull();
  });

  it("does not refuse ordinary words that contain a short bad word", () => {
    expect(containsProfanity("classic")).toBe(false);
    expect(containsProfanity("assistant")).toBe(false);
  });

  it("counts whole days until the next change; a first username is always allowed", () => {
    const now = Date.UTC(2026, 10, 22);
    const day = 24 * 60 * 60 * 1000;
    expect(daysUntilUsernameChange({ username: null, usernameLastChanged: now }, now)).toBe(0);
    expect(daysUntilUsernameChange({ username: "ada", usernameLastChanged: null }, now)).toBe(0);
    expect(daysUntilUsernameChange({ username: "ada", usernameLastChanged: now }, now)).toBe(USERNAME.changeIntervalDays);
    expect(daysUntilUsernameChange({ username: "ada", usernameLastChanged: now - 13.5 * day }, now)).toBe(1);
    expect(daysUntilUsernameChange({ username: "ada", usernameLastChanged: now - 14 * day }, now)).toBe(0);
  });
});

describe("website rule", () => {
  it.each([
    ["https://ada.dev", true],
    ["http://localhost:3000", true],
    ["ada.dev", true],
    ["www.example.co.uk/about", true],
    ["nodot", false],
    ["javascript:alert(1)//x.com", false],
    ["data:text/html,hi.there", false],
    ["ftp://files.example.com", false],
    ["has space.com", false],
  ])("%s → %s", (value, ok) => {
    expect(isAcceptableWebsite(value)).toBe(ok);
  });

  it("links a bare host over https", () => {
    expect(websiteHref("ada.dev")).toBe("https://ada.dev");
    expect(websiteHref("http://ada.dev")).toBe("http://ada.dev");
  });
});
