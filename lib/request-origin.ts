/** Where a request came from, as the service saw it (lib/api/client-address.ts decides it); the User-Agent cut and made safe to show. */
export type RequestOrigin = { address: string | null; userAgent: string | null };
