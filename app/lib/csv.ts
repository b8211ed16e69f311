// CSV cells that spreadsheets cannot run: a text cell starting with =, +, -, @, tab or carriage
// return would be read as a formula (a model name like `=HYPERLINK(…)` reported by anyone with
// an API token), so it gets a leading apostrophe, which spreadsheets show as plain text.
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number): string {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(values: Array<string | number>): string {
  return values.map(csvCell).join(",");
}
