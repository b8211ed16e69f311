// The early-access admin page: statistics, then the waitlist, then the keys. `result` is the
// answer of the last form post (grant, grant the top N, revoke): it sticks below the top bar, so
// it is in view wherever on the long page the button was.
import type { SubmissionResult } from "@conform-to/react";
import type { EarlyAccessStats, KeyRow, Paged, WaitlistRow } from "~/lib/early-access/admin.server";
import { ActionResult } from "../ui";
import { AdminKeys } from "./admin-keys";
import type { AdminSearch } from "./admin-shared";
import { AdminStats } from "./admin-stats";
import { AdminWaitlist } from "./admin-waitlist";

export function EarlyAccessAdmin({
  search,
  waitlist,
  keys,
  stats,
  bulkMax,
  result,
}: {
  search: AdminSearch;
  waitlist: Paged<WaitlistRow>;
  keys: Paged<KeyRow>;
  stats: EarlyAccessStats;
  bulkMax: number;
  result?: { ok: boolean; message: string; grantTop?: SubmissionResult<string[]> };
}) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Early access</h1>
      <p className="mt-1 text-sm text-slate-600">Administrators only. Every grant, key and revocation is written to the audit log with your account.</p>
      <ActionResult result={result} />
      <div className="mt-8 space-y-8">
        <AdminStats stats={stats} />
        <AdminWaitlist search={search} waitlist={waitlist} bulkMax={bulkMax} grantTop={result?.grantTop} />
        <AdminKeys search={search} keys={keys} bulkMax={bulkMax} />
      </div>
    </>
  );
}
