// C0/C1 controls, the bidirectional overrides that can make text read differently from what it
// is (a device name that displays as someone else's), and lone UTF-16 surrogates, which are no
// text at all (JSON allows them as escapes; the database driver cannot store them).
export const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
