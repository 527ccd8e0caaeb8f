"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { safeReturnTo, withReturnTo } from "@/lib/api/return-to";

const AUTH_PAGES = new Set(["/signin", "/signup"]);

/** Where signing in from this page should lead back to: this page, or on a form page the target it already has. */
function returnTarget(pathname: string, search: URLSearchParams): string {
  if (AUTH_PAGES.has(pathname)) return safeReturnTo(search.get("returnTo"));
  const kept = new URLSearchParams(search);
  // A form's error belongs to the visit that caused it, not to the way back.
  kept.delete("error");
  const query = kept.toString();
  return safeReturnTo(query === "" ? pathname : `${pathname}?${query}`);
}

/** The header's Sign in and Sign up links (Sign up while sign-up is open); both keep the way back to the page the person is on. */
export function SignInLinks({ signUp }: { signUp: boolean }) {
  const returnTo = returnTarget(usePathname(), useSearchParams());
  return (
    <>
      <Link href={withReturnTo("/signin", returnTo)}>Sign in</Link>
      {signUp ? <Link href={withReturnTo("/signup", returnTo)}>Sign up</Link> : null}
    </>
  );
}
