// Spec overview greeting: full name, else first name, else the e-mail's local part, else 'User'.
export function displayName(user: { firstName: string | null; lastName: string | null; email: string }): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  return user.email.split("@")[0] || "User";
}

/** Spec sidebar: the user's name is the part of the e-mail before the at-sign. */
export function emailLocalPart(email: string): string {
  return email.split("@")[0] || "User";
}
