"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const RECHECK_MS = 2000;

/** Stands in for the public key while it is generated, and reloads the page data until it is there. */
export function KeyPending() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), RECHECK_MS);
    return () => clearInterval(timer);
  }, [router]);
  return (
    <section className="card">
      <h2>Public key</h2>
      <p role="status" className="muted">
        Generating this project’s key pair. This takes a few seconds; the page updates by itself.
      </p>
    </section>
  );
}
