"use client";

import { useSyncExternalStore } from "react";

// The server does not know the reader's time zone: it renders the moment in UTC and says so,
// and the browser replaces that with the reader's own zone once the page has hydrated.

const FIELDS: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
const IN_UTC = new Intl.DateTimeFormat("en-GB", { ...FIELDS, timeZone: "UTC" });

const noSubscription = () => () => {};

/** A moment as a <time>, in the reader's time zone (in UTC until the page hydrates). */
export function LocalTime({ value }: { value: Date }) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const text = hydrated ? new Intl.DateTimeFormat(undefined, FIELDS).format(value) : IN_UTC.format(value);
  return <time dateTime={value.toISOString()}>{text}</time>;
}
