"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/**
 * A header link that says when it is where the person is: `aria-current="page"` on its own page,
 * `"true"` on a page below it (a project under Projects) or of its `section` (every settings page
 * under Settings), shown by its style (app/globals.css).
 */
export function NavLink({ href, section = href, children }: { href: string; section?: string; children: ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href ? "page" : pathname.startsWith(`${section}/`) ? "true" : undefined;
  return (
    <Link href={href} aria-current={current}>
      {children}
    </Link>
  );
}
