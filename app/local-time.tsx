"use client";

import { useSyncExternalStore } from "react";

// The server does not know the reader's time zone: it renders the moment in UTC and says so,
// and the browser replaces that with the reader's own zone once the page has hydrated.

const DATE_AND_TIME: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
// The steps of one login on the activity page, under a heading that has the date.
const TIME_ONLY: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };

const noSubscription = () => () => {};

/** A moment as a <time>, in the reader's time zone (in UTC until the page hydrates); `timeOnly`: its hour and minute. */
export function LocalTime({ value, timeOnly = false }: { value: Date; timeOnly?: boolean }) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const fields = timeOnly ? TIME_ONLY : DATE_AND_TIME;
  const text = new Intl.DateTimeFormat(hydrated ? undefined : "en-GB", hydrated ? fields : { ...fields, timeZone: "UTC" }).format(value);
  return <time dateTime={value.toISOString()}>{text}</time>;
}
