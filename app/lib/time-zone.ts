// Time zones as the account's profile names them (IANA names: "Asia/Kathmandu"), and what a zone
// makes of an instant: its offset, its local date and time, the instants where its offset holds
// (ADR 0030). Only Intl: the runtime's own zone data (workerd's V8 and the browser's alike).
// Every zone's offset is a whole number of quarter hours and every change of it falls on a
// quarter hour, so an offset found for an instant holds for its whole quarter hour: the memo
// keeps one per zone and quarter, and a ledger's rebuild asks a few per year (offsetPeriods).
import { BoundedMap } from "./bounded-map";
import { MS } from "./constants";

export const UTC = "UTC";

// ICU (V8's zone data, in workerd and in Chrome alike) lists some zones under the names they had
// before the IANA database renamed them; people look for the current ones.
const CURRENT_NAMES: Record<string, string> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

let names: readonly string[] | null = null;

/**
 * Every zone the runtime knows (Intl.supportedValuesOf), under its current IANA name, with UTC
 * first: V8 lists region names only ("UTC" is not among them), and UTC is every account's default.
 */
export function timeZoneNames(): readonly string[] {
  names ??= [
    UTC,
    ...Intl.supportedValuesOf("timeZone")
      .filter((z) => z !== UTC)
      .map((z) => CURRENT_NAMES[z] ?? z)
      .sort(),
  ];
  return names;
}

let listed: ReadonlySet<string> | null = null;
// A region's zone, as the IANA database spells it: "America/Argentina/Buenos_Aires", "Asia/Kathmandu".
const REGION_ZONE = /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)(\/[A-Z][A-Za-z0-9_+-]*){1,2}$/;

/**
 * Whether the profile may hold this zone: UTC, a zone of the list (under its current or its ICU
 * name), or another name of a listed zone (Asia/Chongqing for Asia/Shanghai), as a browser may
 * report it. Not "Etc/GMT+5", "EST5EDT" nor a name in other letter case.
 */
export function isTimeZone(zone: string): boolean {
  listed ??= new Set([...timeZoneNames(), ...Intl.supportedValuesOf("timeZone")]);
  if (listed.has(zone)) return true;
  if (!REGION_ZONE.test(zone)) return false;
  try {
    return listed.has(new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

const formatters = new BoundedMap<string, Intl.DateTimeFormat>(64);

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

// Per zone and quarter hour: a year of one zone is 35,040 quarters, and a page or a rebuild asks
// for far fewer (a day's hours: about 100).
const offsets = new BoundedMap<string, number>(50_000);

/** The zone's offset from UTC at `ms`, in ms (Asia/Kathmandu: +20,700,000, i.e. +5:45). */
export function zoneOffset(ms: number, zone: string): number {
  if (zone === UTC) return 0;
  const quarter = Math.floor(ms / MS.QUARTER_HOUR);
  const key = `${zone}\u0000${quarter}`;
  const held = offsets.get(key, 0);
  if (held !== undefined) return held;
  const at = quarter * MS.QUARTER_HOUR;
  const p: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(at)) if (part.type !== "literal") p[part.type] = Number(part.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  // Years before 100 would be read as 19xx by Date.UTC; no usage is that old.
  const offset = local - at;
  offsets.set(key, offset);
  return offset;
}

/** The local wall-clock time at `ms`, as a Date whose UTC fields are the zone's (never shown as an instant). */
export function wallClock(ms: number, zone: string): Date {
  return new Date(ms + zoneOffset(ms, zone));
}

/**
 * `ms` as ISO 8601 with the zone's offset: "2026-11-30T00:05:00.000+11:00"; in UTC exactly as
 * Date.prototype.toISOString writes it ("…Z"), so answers for a UTC account are as they were.
 */
export function isoInZone(ms: number, zone: string): string {
  const offset = zoneOffset(ms, zone);
  if (offset === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offset).toISOString().slice(0, 23);
  const minutes = Math.abs(offset) / MS.MINUTE;
  const sign = offset < 0 ? "-" : "+";
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A stretch of time [start, end) over which the zone's offset is `offset`. */
export type OffsetPeriod = { start: number; end: number; offset: number };

/**
 * The zone's offsets over [from, to), as periods of one offset each, found by asking the offset
 * once per day and, where it changed within a day, narrowing the change down to its quarter hour
 * (zones change their offset at most a few times a year, never twice in a day).
 */
export function offsetPeriods(from: number, to: number, zone: string): OffsetPeriod[] {
  if (to <= from) return [];
  const periods: OffsetPeriod[] = [];
  let start = from;
  let offset = zoneOffset(from, zone);
  for (let t = from; t < to; ) {
    const next = Math.min(t + MS.DAY, to);
    const probe = Math.max(t, next - 1);
    if (zoneOffset(probe, zone) !== offset) {
      // The first quarter in (t, probe] with the new offset.
      let lo = Math.floor(t / MS.QUARTER_HOUR);
      let hi = Math.floor(probe / MS.QUARTER_HOUR);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (zoneOffset(mid * MS.QUARTER_HOUR, zone) === offset) lo = mid;
        else hi = mid;
      }
      const change = hi * MS.QUARTER_HOUR;
      periods.push({ start, end: change, offset });
      start = change;
      offset = zoneOffset(change, zone);
      t = change;
      continue;
    }
    t = next;
  }
  periods.push({ start, end: to, offset });
  return periods;
}
