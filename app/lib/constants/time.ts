// Units of time, in milliseconds (part of ./index.ts).
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const MS = { SECOND, MINUTE, HOUR, DAY } as const;
