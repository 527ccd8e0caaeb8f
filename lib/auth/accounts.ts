import { db, isUniqueViolation } from "../db";
import { ApiError } from "../http/errors";
import { randomId } from "../secrets";
import { hashPassword, unknownUserHash, verifyPassword } from "./passwords";
import type { Credentials } from "./schemas";

export async function signUp(credentials: Credentials): Promise<string> {
  const prisma = await db();
  const passwordHash = await hashPassword(credentials.password);
  try {
    const user = await prisma.user.create({
      data: { id: randomId(), email: credentials.email, passwordHash, createdAt: new Date() },
      select: { id: true },
    });
    return user.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("email_taken", "An account with this email already exists. Sign in instead.");
    throw error;
  }
}

// One message for an unknown email and a wrong password, and the same scrypt work for both.
export async function signIn(credentials: Credentials): Promise<string> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: credentials.email }, select: { id: true, passwordHash: true } });
  const matches = await verifyPassword(credentials.password, user?.passwordHash ?? (await unknownUserHash()));
  if (user === null || !matches) throw new ApiError("invalid_credentials", "The email or password is not right.");
  return user.id;
}
