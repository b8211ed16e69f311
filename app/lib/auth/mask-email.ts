/**
 * An address shown partly hidden ("a•••e@example.com"): enough for its owner to recognise it on
 * a page that anyone holding a link could open, not enough to learn it from there.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const chars = [...local];
  const shown = chars.length <= 2 ? `${chars[0]}•••` : `${chars[0]}•••${chars[chars.length - 1]}`;
  return `${shown}@${domain}`;
}
