// The docs stay true (issue 47): each decision has a number of its own and a row in the index,
// and every link between the repository's documents leads to a file that exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "@playwright/test";

const DECISIONS = "docs/decisions";

test("every decision has a number of its own and a row in the index", () => {
  const files = readdirSync(DECISIONS).filter((f) => /^\d{4}-.+\.md$/.test(f));
  const numbers = files.map((f) => f.slice(0, 4));
  const repeated = numbers.filter((n, i) => numbers.indexOf(n) !== i);
  expect(repeated, "decision numbers used twice").toEqual([]);
  const index = readFileSync(join(DECISIONS, "README.md"), "utf8");
  for (const file of files) expect(index, `${file} in the index`).toContain(`](${file})`);
});

test("every relative link of the README and docs/ leads to a file that exists", () => {
  const documents = [
    "README.md",
    ...readdirSync("docs", { recursive: true })
      .map((f) => join("docs", String(f)))
      .filter((f) => f.endsWith(".md")),
  ];
  const broken: string[] = [];
  for (const document of documents) {
    const text = readFileSync(document, "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const path = join(dirname(document), target!.split("#")[0]!);
      if (!existsSync(path)) broken.push(`${document}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});
