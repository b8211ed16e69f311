// What the home page says to someone sent there by another page, keyed by a code in its address
// (DESIGN: messages shown come from the server's own list, never from the URL itself).
// `/?accountDeleted=1`: where "Delete my account" lands, signed out (issue 46).

export type SiteNotice = { code: "account-deleted"; title: string; text: string };

const ACCOUNT_DELETED: SiteNotice = {
  code: "account-deleted",
  title: "Your account is deleted",
  text: "Your Modelify account and the data it held are gone, and you are signed out. We e-mailed you a confirmation. You can sign up again with the same address at any time.",
};

/** The notice the address asks for, or null (an unknown code or value says nothing). */
export function homeNotice(params: URLSearchParams): SiteNotice | null {
  if (params.get("accountDeleted") === "1") return ACCOUNT_DELETED;
  return null;
}
