// Which unknown paths are pages, and the site's security.txt. An unknown page goes home (the
// spec: they were pages of an earlier site); anything else a program asks for (a file, a
// /.well-known/ document) must hear 404, or it takes the home page for the thing it wanted.
import { MS, WELL_KNOWN } from "../constants";

/**
 * A path a person may have typed or bookmarked as a page: no segment that starts with a dot
 * (/.well-known/…, /.env, /.git/…) and no file extension on the last segment (/favicon.ico,
 * /x.php, /assets/gone.js). Percent-escapes are not decoded: an escaped dot is not a file's.
 */
export function isPagePath(pathname: string): boolean {
  const segments = pathname.split("/").filter(Boolean);
  if (segments.some((segment) => segment.startsWith("."))) return false;
  return !/\.[A-Za-z0-9]{1,10}$/.test(segments.at(-1) ?? "");
}

/** RFC 9116: where to report a vulnerability, until when that holds, and where the file lives. */
export function securityTxt(origin: string, now: number): string {
  const expires = new Date(Math.floor((now + WELL_KNOWN.securityTxtExpiresInDays * MS.DAY) / 1000) * 1000);
  return [
    `Contact: mailto:${WELL_KNOWN.securityContact}`,
    `Expires: ${expires.toISOString().replace(".000Z", "Z")}`,
    `Preferred-Languages: ${WELL_KNOWN.securityTxtLanguages}`,
    `Canonical: ${origin}/.well-known/security.txt`,
    "",
  ].join("\n");
}
