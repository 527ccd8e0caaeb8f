// The hostile-input suite's shared part, in its parts: the
// documented answers of every route, a fingerprint of the whole database, the generators and
// the runners of the API routes' and the forms' properties. The properties live in
// tests/api/hostile/*.test.ts, so that they run on SQLite and on PostgreSQL like the rest of
// tests/api.
export * from "./documented";
export * from "./fingerprint";
export * from "./form-generators";
export * from "./form-properties";
export * from "./generators";
export * from "./properties";
