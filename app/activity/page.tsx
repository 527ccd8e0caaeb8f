import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { listActivity } from "@/lib/activity/list-activity";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { reportedApproval } from "@/lib/approvals/report-approval";
import { pageMessage } from "@/lib/errors";
import { ReportedNotice } from "../approval-report";
import { ErrorAlert } from "../form-parts";
import { ActivityList } from "./activity-list";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/activity"));
  const { before, reported, error } = await searchParams;
  const cursor = typeof before === "string" ? before : undefined;
  const [page, report] = await Promise.all([listActivity(user.id, cursor), typeof reported === "string" ? reportedApproval(user.id, reported) : null]);
  return (
    <>
      <h1>Activity</h1>
      <ErrorAlert message={pageMessage(error)} />
      <ReportedNotice report={report} />
      <p className="muted">
        What happened to your requests, links and access tokens, newest first, and where it came from. If you see a link you did not make, revoke it on
        its project&apos;s page and revoke the access token that made it on <Link href="/settings/tokens">Access tokens</Link>. If you see an
        approval you did not mean, &ldquo;This wasn&apos;t me&rdquo; revokes everything it gave at once.
      </p>
      <ActivityList page={page} scope={{ kind: "account" }} before={cursor} path="/activity" />
    </>
  );
}
