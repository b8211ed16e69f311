// Makes app/fonts/inter-latin-wght.woff2 and app/fonts/inter.css: Inter's Latin face from @fontsource-variable/inter,
// cut to what the site uses, so the font every page preloads is about 29 KB instead of 48 KB
// (docs/decisions/0016-lighthouse-and-compression.md). The weight axis keeps 400 to 800
// (font-normal to font-extrabold), the characters stay the Latin unicode-range the CSS declares,
// and the OpenType features are kerning, contextual alternates, marks and tabular figures.
// Needs Python's fontTools with brotli (Debian: apt-get install python3-fonttools python3-brotli).
// The other scripts' faces stay @fontsource-variable/inter's files (loaded only for their
// characters). The output is committed; run this again after updating @fontsource-variable/inter.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PACKAGE = "node_modules/@fontsource-variable/inter";
const SOURCE = `${PACKAGE}/files/inter-latin-wght-normal.woff2`;
const OUTPUT = "app/fonts/inter-latin-wght.woff2";
const CSS = "app/fonts/inter.css";
const OTHER_SUBSETS = ["cyrillic-ext", "cyrillic", "greek-ext", "greek", "vietnamese", "latin-ext"];
const WEIGHTS = "400:800";
const FEATURES = "kern,calt,ccmp,locl,mark,mkmk,tnum";

// The first Python that has fontTools (a pyenv python3 on PATH may lack Debian's packages).
const PYTHON =
  [process.env.PYTHON, "python3", "/usr/bin/python3"].filter(Boolean).find((p) => spawnSync(p, ["-c", "import fontTools, brotli"]).status === 0) ?? "python3";

function python(args) {
  // A fixed timestamp in the font's head table, so the same input gives the same bytes.
  const result = spawnSync(PYTHON, args, { encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH: "1735689600" } });
  if (result.error || result.status !== 0) {
    console.error(result.stderr || result.error?.message);
    console.error("This needs Python's fontTools and brotli: sudo apt-get install -y python3-fonttools python3-brotli");
    process.exit(1);
  }
}

const ranges = JSON.parse(readFileSync(`${PACKAGE}/unicode.json`, "utf8"));
const latin = ranges.latin;
const version = JSON.parse(readFileSync(`${PACKAGE}/package.json`, "utf8")).version;
const work = mkdtempSync(join(tmpdir(), "inter-subset-"));
try {
  python(["-m", "fontTools.varLib.instancer", SOURCE, `wght=${WEIGHTS}`, "-q", "-o", `${work}/limited.woff2`]);
  python([
    "-m",
    "fontTools.subset",
    `${work}/limited.woff2`,
    `--unicodes=${latin}`,
    `--layout-features=${FEATURES}`,
    "--flavor=woff2",
    `--output-file=${OUTPUT}`,
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
const face = (src, range, weight) =>
  `@font-face {\n  font-family: "Inter Variable";\n  font-style: normal;\n  font-display: swap;\n  font-weight: ${weight};\n  src: url("${src}") format("woff2-variations");\n  unicode-range: ${range};\n}\n`;
writeFileSync(
  CSS,
  [
    "/* Made by scripts/subset-font.mjs: Inter as @fontsource-variable/inter declares it, except the\n   Latin face, which is our own cut of it and the file every page preloads (root.tsx). */\n",
    ...OTHER_SUBSETS.map((subset) => face(`@fontsource-variable/inter/files/inter-${subset}-wght-normal.woff2`, ranges[subset], "100 900")),
    // Declared 100 900 like the others although its axis now ends at 400 and 800 (the browser
    // clamps to the axis): Chromium groups a family's faces by their weight range and picks one
    // group, so a Latin face with a range of its own would never be chosen.
    face("./inter-latin-wght.woff2", latin, "100 900"),
  ].join(""),
);
console.log(`${OUTPUT}: ${statSync(OUTPUT).size} bytes (from @fontsource-variable/inter ${version}, ${statSync(SOURCE).size} bytes)`);
