import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { findInitView } from "@/lib/init/view";
import { LiveStatus } from "./live-status";

export const metadata: Metadata = { title: "Approve a client", referrer: "no-referrer" };

export default async function InitPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const init = await findInitView(id);
  if (init === null) notFound();

  const notReported = <span className="muted">not reported</span>;
  return (
    <>
      <h1>A client asks to be linked</h1>
      <LiveStatus id={init.id} initialStatus={init.status} intervalMs={init.intervalMs} />
      <section className="card" aria-labelledby="who-asks">
        <h2 id="who-asks">Who is asking</h2>
        <dl className="facts">
          <dt>Application</dt>
          <dd>{init.sender}</dd>
          <dt>Device</dt>
          <dd>{init.senderDevice ?? notReported}</dd>
          <dt>Operating system</dt>
          <dd>{init.senderOs ?? notReported}</dd>
          <dt>Reported address</dt>
          <dd>{init.senderIp ?? notReported}</dd>
          <dt>Request came from</dt>
          <dd>{init.observedIp ?? <span className="muted">unknown</span>}</dd>
          <dt>Started</dt>
          <dd>
            <time dateTime={new Date(init.createdAt).toISOString()}>{new Date(init.createdAt).toUTCString()}</time>
          </dd>
        </dl>
      </section>
      <p className="warning">Approve only if you just started this yourself in a terminal. Otherwise, deny it.</p>
    </>
  );
}
