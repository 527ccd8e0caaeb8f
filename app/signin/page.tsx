import type { Metadata } from "next";
import { safeReturnTo } from "@/lib/auth/return-to";
import { formErrorMessage } from "@/lib/http/messages";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  return (
    <>
      <h1>Sign in</h1>
      <AuthForm mode="signin" returnTo={safeReturnTo(query.returnTo)} error={formErrorMessage(query.error)} />
    </>
  );
}
