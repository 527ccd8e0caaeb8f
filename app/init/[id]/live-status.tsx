"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { InitStatus as Status } from "@/lib/init/init-lifecycle";

const LABELS: Record<Status, string> = {
  pending: "Waiting for approval",
  done: "Approved",
  denied: "Denied",
  expired: "Expired",
};

const isStatus = (value: unknown): value is Status =>
  value === "pending" || value === "done" || value === "denied" || value === "expired";

function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The status in a status answer (an event's data or a poll's body), if it has one. */
function statusOf(body: unknown): Status | undefined {
  const next = typeof body === "object" && body !== null && "status" in body ? body.status : undefined;
  return isStatus(next) ? next : undefined;
}

/**
 * The init's status and time left, kept current by the init's event stream (each tab has its
 * own, and streams do not count as polls), or by polling the status resource at the init's
 * interval when the stream fails (a proxy that buffers, a browser without EventSource). When the
 * status changes (approved in another tab, denied, expired) the page is rendered again from the
 * server, without a reload.
 */
export function LiveStatus({ id, initialStatus, intervalMs, expiresAt }: { id: string; initialStatus: Status; intervalMs: number; expiresAt: number }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>(initialStatus);
  const [now, setNow] = useState<number | null>(null);
  const [polling, setPolling] = useState(false);

  useEffect(() => {
    if (status !== initialStatus) router.refresh();
  }, [status, initialStatus, router]);

  useEffect(() => {
    if (status !== "pending") return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    setNow(Date.now());
    return () => clearInterval(tick);
  }, [status]);

  useEffect(() => {
    if (status !== "pending" || polling) return;
    if (typeof EventSource === "undefined") {
      setPolling(true);
      return;
    }
    const stream = new EventSource(`/api/init/${encodeURIComponent(id)}/events`);
    stream.onmessage = (message) => {
      try {
        const next = statusOf(JSON.parse(message.data));
        if (next !== undefined) setStatus(next);
      } catch {
        // Not an answer of ours: wait for the next event.
      }
    };
    stream.onerror = () => {
      stream.close();
      setPolling(true);
    };
    return () => stream.close();
  }, [id, status, polling]);

  useEffect(() => {
    if (status !== "pending" || !polling) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      let waitMs = intervalMs;
      try {
        const response = await fetch(`/api/init/${encodeURIComponent(id)}`, { cache: "no-store" });
        if (response.status === 429) {
          waitMs = Math.max(intervalMs, Number(response.headers.get("retry-after") ?? "0") * 1000);
        } else if (response.ok) {
          const next = statusOf(await response.json());
          if (next !== undefined) setStatus(next);
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
  }, [id, intervalMs, status, polling]);

  // Once decided or expired the page's heading says so: the status is then for screen readers
  // only (it announces the change), not a second line saying the same thing.
  return (
    <p role="status" aria-live="polite" className={status === "pending" ? undefined : "visually-hidden"}>
      <span className={`status status-${status}`}>{LABELS[status]}</span>
      {status === "pending" && now !== null ? <span className="muted nowrap"> · expires in {formatRemaining(expiresAt - now)}</span> : null}
    </p>
  );
}
