// Units of time, in milliseconds (part of ./index.ts).
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

// QUARTER_HOUR: every time zone's offset, and every change of it, is a whole number of quarter hours (ADR 0030).
export const MS = { SECOND, MINUTE, QUARTER_HOUR: 15 * MINUTE, HOUR, DAY } as const;
