// C0/C1 controls and the bidirectional overrides that can make text read differently from
// what it is (a device name that displays as someone else's).
export const UNSAFE_CHARACTERS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
