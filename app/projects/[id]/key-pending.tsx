"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const RECHECK_MS = 2000;

/** Reloads the page data every RECHECK_MS while it is mounted: render it only while the key is being generated. */
function RefreshUntilKey() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), RECHECK_MS);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}

/** Stands in for the public key on the project page while it is generated. */
export function KeyPending() {
  return (
    <section className="card">
      <h2>Public key</h2>
      <p role="status" className="muted">
        Generating this project’s key pair. This takes a few seconds; the page updates by itself.
      </p>
      <RefreshUntilKey />
    </section>
  );
}

/** Stands in for the key's fingerprint in a list of facts while it is generated. */
export function FingerprintPending() {
  return (
    <span className="muted">
      being generated; the page updates by itself
      <RefreshUntilKey />
    </span>
  );
}
