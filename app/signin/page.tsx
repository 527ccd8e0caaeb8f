import type { Metadata } from "next";
import { AUTH_TITLES, AuthPage, type SearchParams } from "../auth-form";

export const metadata: Metadata = { title: AUTH_TITLES.signin };

export default function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  return <AuthPage mode="signin" searchParams={searchParams} />;
}
