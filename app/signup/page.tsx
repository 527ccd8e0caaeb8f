import type { Metadata } from "next";
import { AUTH_TITLES, AuthPage, type SearchParams } from "../auth-form";

export const metadata: Metadata = { title: AUTH_TITLES.signup };

export default function SignUpPage({ searchParams }: { searchParams: SearchParams }) {
  return <AuthPage mode="signup" searchParams={searchParams} />;
}
