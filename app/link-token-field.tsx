"use client";

import { useEffect, useState } from "react";

/**
 * The token of a mailed link, as a hidden field of the page's form. The link carries it in its
 * fragment, which no server receives (lib/email/email-links.ts); the field takes it from there,
 * keeps it for this tab (so that a refusal of the form, a password too short say, can be sent
 * again) and takes it out of the address bar and the history.
 */
export function LinkTokenField({ purpose }: { purpose: "reset_password" | "verify_email" }) {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    const key = `initlink:${purpose}`;
    const fromLink = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (fromLink !== null) {
      sessionStorage.setItem(key, fromLink);
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    setToken(fromLink ?? sessionStorage.getItem(key) ?? "");
  }, [purpose]);
  return (
    <>
      <input type="hidden" name="token" value={token ?? ""} />
      {token === "" ? (
        <p role="alert" className="error">
          This page works from the link in the mail we sent you: open that link.
        </p>
      ) : null}
    </>
  );
}
