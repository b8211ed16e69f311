// Money as every dashboard page shows it (lib/format.ts `usd`, in the page's locale): a sub-cent
// amount reads "< $0.01", with the exact amount on hover and for screen readers.
import { isSubCent } from "~/lib/format";
import { useFormat } from "./format";

export function Money({ value }: { value: number }) {
  const f = useFormat();
  if (!isSubCent(value)) return f.usd(value);
  const exact = f.usdExact(value);
  return (
    <span title={exact} data-exact={exact}>
      <span aria-hidden="true">{f.usd(value)}</span>
      <span className="sr-only">{`less than one cent (${exact})`}</span>
    </span>
  );
}
