"use client";

import { useEffect, type ReactNode } from "react";

/**
 * Sends the browser to the application's loopback redirect URI with the authorization response
 * (lib/oauth/authorization-code.ts): a navigation of the page's own, since the page's
 * Content-Security-Policy lets a form's answer redirect to this site only (form-action 'self').
 * The link does the same without scripts, or if the navigation is blocked.
 */
export function ReturnToClient({ url, redirectTo, children }: { url: string; redirectTo: string; children: ReactNode }) {
  useEffect(() => {
    window.location.replace(url);
  }, [url]);
  return (
    <p id="return-to-client">
      {children} <a href={url}>Return to the application</a> (on this computer, at {redirectTo}).
    </p>
  );
}
