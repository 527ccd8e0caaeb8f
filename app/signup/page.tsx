import type { Metadata } from "next";
import { safeReturnTo } from "@/lib/auth/return-to";
import { formErrorMessage } from "@/lib/http/messages";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  return (
    <>
      <h1>Create an account</h1>
      <AuthForm mode="signup" returnTo={safeReturnTo(query.returnTo)} error={formErrorMessage(query.error)} />
    </>
  );
}
