// Changing the password while signed in (issue 46). A change of a way in: it takes a recent proof
// whose password was typed now (the rule is recent-proof.server.ts's), ends every other session
// and device key (what the old password may have let someone keep), and tells the owner.
import type { LedgerNamespace } from "../usage/ledger/api";
import type { Db } from "../db.server";
import { log } from "../log/log.server";
import { enqueueMail } from "../mail/mail.server";
import { passwordChangedMail } from "../mail/templates";
import { hashSecret } from "./password";
import { assertProofOf, type RecentProof } from "./recent-proof.server";
import { revokeAccountAccess } from "./revocation.server";
import { deviceLabel } from "./user-agent";
import { setPasswordHash } from "./users.server";

export type PasswordChangeDeps = { db: Db; queue: Queue; ledgers: LedgerNamespace; origin: string; userAgent: string | null };

/** Sets the new password and keeps only the session that changed it; returns how many others ended. */
export async function changePassword(
  deps: PasswordChangeDeps,
  user: { id: string; email: string },
  sessionId: string,
  newPassword: string,
  proof: RecentProof,
): Promise<number> {
  assertProofOf(proof, user.id);
  await setPasswordHash(deps.db, user.id, await hashSecret(newPassword));
  const ended = await revokeAccountAccess(deps, user.id, "password_changed", { keepSessionId: sessionId });
  await enqueueMail(deps.queue, passwordChangedMail(user.email, deviceLabel(deps.userAgent), new URL("/auth?mode=forgot-password", deps.origin).toString()));
  log.info("password_changed", { userId: user.id, sessionsEnded: ended });
  return ended;
}
