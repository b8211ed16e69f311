// Spec overview greeting: full name, else first name, else the e-mail's local part, else 'User'.
export function displayName(user: { firstName: string | null; lastName: string | null; email: string }): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  return user.email.split("@")[0] || "User";
}

function emailLocalPart(email: string): string {
  return email.split("@")[0] || "User";
}

type ProfileNames = { firstName: string | null; lastName: string | null; username: string | null; email: string };

/**
 * The dashboard sidebar's name for the account: the profile's name, else its username, else the
 * e-mail's local part. The spec shows only the local part, which hid the name a person gave their
 * profile (issue 46).
 */
export function accountName(user: ProfileNames): string {
  const name = [user.firstName?.trim(), user.lastName?.trim()].filter(Boolean).join(" ");
  return name || user.username?.trim() || emailLocalPart(user.email);
}

/** One or two letters for a profile without a picture: the first and last name's, else the name's first. */
export function accountInitials(user: ProfileNames): string {
  const first = user.firstName?.trim().charAt(0) ?? "";
  const last = user.lastName?.trim().charAt(0) ?? "";
  return (first && last ? first + last : accountName(user).charAt(0)).toUpperCase();
}
