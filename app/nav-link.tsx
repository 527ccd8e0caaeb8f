"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/**
 * A header link that says when it is where the person is: `aria-current="page"` on its own page,
 * `"true"` on a page below it (a project under Projects) or in one of its `sections` (every
 * settings page, and the webhooks' pages, under Settings), shown by its style (app/globals.css).
 */
export function NavLink({ href, sections = [], children }: { href: string; sections?: string[]; children: ReactNode }) {
  const pathname = usePathname();
  const within = pathname.startsWith(`${href}/`) || sections.some((section) => pathname === section || pathname.startsWith(`${section}/`));
  const current = pathname === href ? "page" : within ? "true" : undefined;
  return (
    <Link href={href} aria-current={current}>
      {children}
    </Link>
  );
}
