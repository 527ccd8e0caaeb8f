"use client";

import { useEffect, useState } from "react";

type Status = "pending" | "done" | "denied" | "expired";

const LABELS: Record<Status, string> = {
  pending: "Waiting for approval",
  done: "Approved",
  denied: "Denied",
  expired: "Expired",
};

const isStatus = (value: unknown): value is Status =>
  value === "pending" || value === "done" || value === "denied" || value === "expired";

/** The init's status, kept current by polling the status resource at the init's interval. */
export function LiveStatus({ id, initialStatus, intervalMs }: { id: string; initialStatus: Status; intervalMs: number }) {
  const [status, setStatus] = useState<Status>(initialStatus);

  useEffect(() => {
    if (status !== "pending") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      let waitMs = intervalMs;
      try {
        const response = await fetch(`/api/init/${encodeURIComponent(id)}`, { cache: "no-store" });
        if (response.status === 429) {
          waitMs = Math.max(intervalMs, Number(response.headers.get("retry-after") ?? "0") * 1000);
        } else if (response.status === 404) {
          stopped = true;
        } else if (response.ok) {
          const body: unknown = await response.json();
          const next = typeof body === "object" && body !== null && "status" in body ? body.status : undefined;
          if (isStatus(next)) setStatus(next);
        }
      } catch {
        // Offline for a moment: try again at the next interval.
      }
      if (!stopped) timer = setTimeout(poll, waitMs);
    };
    timer = setTimeout(poll, intervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, intervalMs, status]);

  return (
    <p role="status" aria-live="polite">
      Status: <span className={`status status-${status}`}>{LABELS[status]}</span>
    </p>
  );
}
