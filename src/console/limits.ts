// Sign-in attempts, counted in the Coordinator's rate windows (one instance per subject): per email
// address, whether or not a user has it (so a refusal says nothing about who exists), and per client IP.
import { signInCoordinator } from "../coordinator/names";
import { sha256Hex } from "../lib/crypto";

export const PER_EMAIL = { limit: 5, windowMs: 15 * 60_000 };
export const PER_IP = { limit: 30, windowMs: 15 * 60_000 };

/** Counts one attempt against each subject; answers the seconds to wait when any is over its limit. */
export async function countSignInAttempt(env: Pick<Env, "COORDINATOR">, ip: string, email?: string) {
  const subjects = [{ name: `ip:${ip}`, ...PER_IP }];
  if (email !== undefined) subjects.push({ name: `email:${await sha256Hex(email)}`, ...PER_EMAIL });
  const decisions = await Promise.all(
    subjects.map(({ name, limit, windowMs }) =>
      env.COORDINATOR.getByName(signInCoordinator(name)).hit(limit, windowMs),
    ),
  );
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length === 0) return null;
  return Math.max(1, Math.ceil((Math.max(...refused.map((d) => d.resetAt)) - Date.now()) / 1000));
}
