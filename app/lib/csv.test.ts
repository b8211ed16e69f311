import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "./csv";

describe("CSV cells", () => {
  it.each(["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\t=1", "\r=1", '=HYPERLINK("http://evil.example","x")'])("neutralises %j", (value) => {
    const cell = csvCell(value);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(cell.slice(2, -1).replace(/""/g, '"')).toBe(value);
  });

  it("leaves ordinary text and numbers as they are, quoting quotes", () => {
    expect(csvRow(["gpt-4o", 'say "hi"', 12, 0.5, "0.0125"])).toBe('"gpt-4o","say ""hi""",12,0.5,"0.0125"');
    expect(csvCell(Number.NaN)).toBe("");
  });
});
