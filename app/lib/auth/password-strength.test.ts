import { describe, expect, it } from "vitest";
import { passwordStrength, strengthColour } from "./password-strength";

describe("password strength: one point per rule, five rules", () => {
  it("gives one point per rule", () => {
    expect(passwordStrength("")).toBe(0);
    expect(passwordStrength("abcdefgh")).toBe(2); // length + lowercase
    expect(passwordStrength("Abcdefgh")).toBe(3);
    expect(passwordStrength("Abcdefg1")).toBe(4);
    expect(passwordStrength("Abcdef1!")).toBe(5);
    expect(passwordStrength("A1!")).toBe(3); // short but three character classes
  });

  it("colours 4+ green, 3 yellow, 2 orange, else red", () => {
    expect(strengthColour(5)).toBe("green");
    expect(strengthColour(4)).toBe("green");
    expect(strengthColour(3)).toBe("yellow");
    expect(strengthColour(2)).toBe("orange");
    expect(strengthColour(1)).toBe("red");
    expect(strengthColour(0)).toBe("red");
  });
});
