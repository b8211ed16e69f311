// Money as every dashboard page shows it (lib/format.ts formatUsd): a sub-cent amount reads
// "< $0.01", with the exact amount on hover and for screen readers.
import { formatUsd, formatUsdExact, isSubCent } from "~/lib/format";

export function Money({ value }: { value: number }) {
  if (!isSubCent(value)) return formatUsd(value);
  const exact = formatUsdExact(value);
  return (
    <span title={exact} data-exact={exact}>
      <span aria-hidden="true">{formatUsd(value)}</span>
      <span className="sr-only">{`less than one cent (${exact})`}</span>
    </span>
  );
}
