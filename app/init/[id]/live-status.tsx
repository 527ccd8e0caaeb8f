"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { InitStatus as Status } from "@/lib/init/init-lifecycle";
import { WAITING } from "../../approval-words";

const LABELS: Record<Status, string> = {
  pending: WAITING,
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

/** How the page follows the init: its event stream, polling once the stream failed or ended, or not at all any more. */
type Following = "stream" | "polling" | "stopped";

/**
 * The init's status and time left, kept current by the init's event stream (each tab has its
 * own, and streams do not count as polls). When the stream fails or ends (a proxy that buffers,
 * a browser without EventSource, a stream's 5 minutes), a signed-in page polls the status
 * resource at the init's interval, on its viewer's own poll clock; a signed-out page, which
 * cannot decide, stops and offers a reload: its polls would share the poll clock of every other
 * reader from its address (lib/init/poll-interval.ts), a CLI that sends no secret included, and
 * get that CLI told to slow down (docs/api.md). When the status changes (approved in another
 * tab, denied, expired) the page is rendered again from the server, without a reload.
 */
export function LiveStatus({ id, initialStatus, intervalMs, expiresAt, signedIn }: { id: string; initialStatus: Status; intervalMs: number; expiresAt: number; signedIn: boolean }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>(initialStatus);
  const [now, setNow] = useState<number | null>(null);
  const [following, setFollowing] = useState<Following>("stream");

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
    if (status !== "pending" || following !== "stream") return;
    const fallBack = () => setFollowing(signedIn ? "polling" : "stopped");
    if (typeof EventSource === "undefined") {
      fallBack();
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
      fallBack();
    };
    return () => stream.close();
  }, [id, status, following, signedIn]);

  useEffect(() => {
    if (status !== "pending" || following !== "polling") return;
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
  }, [id, intervalMs, status, following]);

  // Once decided or expired the page's heading says so: the status is then for screen readers
  // only (it announces the change), not a second line saying the same thing.
  return (
    <>
      <p role="status" aria-live="polite" className={status === "pending" ? "approval-status" : "visually-hidden"}>
        <span className={`status status-${status}`}>{LABELS[status]}</span>
        {status === "pending" && now !== null ? <span className="muted nowrap"> · expires in {formatRemaining(expiresAt - now)}</span> : null}
        {status === "pending" && following === "stopped" ? <span className="muted"> · no longer updated</span> : null}
      </p>
      {status === "pending" && following === "stopped" ? (
        <p className="muted">
          This page stopped following the request.{" "}
          <button type="button" className="link" onClick={() => window.location.reload()}>
            Reload
          </button>{" "}
          to see where it stands.
        </p>
      ) : null}
    </>
  );
}
