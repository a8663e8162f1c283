// Emulated identities per user (test mode with SANDBOX off): every user of the service has a space of
// their own on the emulators, so two users who both consent as `alice` get two platform accounts (their
// own platform ids, ledgers, counters and revocations). A test connect flow adds the space to the
// emulator's consent URL, tagged with an HMAC bound to the flow's `state`, so nobody can consent into
// another user's space; the emulator seals the space into the code and every token it leads to. With
// SANDBOX=true nothing is tagged: local development has one space. The service side (src/oauth/) and
// the emulators (src/sandbox/) both read this file; neither imports the other.
import { derivedHmacKey, hmacSha256Hex, verifyHmacHex } from "../../lib/crypto";

/** The consent URL's parameter that carries the tagged space. */
export const OWNER_PARAM = "sandbox_owner";

/** The space of a user of the service. */
export const spaceOfUser = (userId: number) => `u${userId}`;

const SPACE = /^u\d{1,16}$/;

const tagKey = (env: Pick<Env, "ENCRYPTION_KEY">) => derivedHmacKey(env.ENCRYPTION_KEY, "sandbox-owner");

/** `<space>.<HMAC of space and state>`: the parameter's value for a flow's consent URL. */
export async function ownerTag(env: Pick<Env, "ENCRYPTION_KEY">, space: string, state: string) {
  return `${space}.${await hmacSha256Hex(await tagKey(env), `${space}\n${state}`)}`;
}

/** The space a tag names for this `state`; null when it is not one this deployment made for it. */
export async function readOwnerTag(
  env: Pick<Env, "ENCRYPTION_KEY">,
  tag: string,
  state: string | null,
): Promise<string | null> {
  const [space, mac, extra] = tag.split(".");
  if (state === null || !space || !mac || extra !== undefined || !SPACE.test(space)) return null;
  return (await verifyHmacHex(await tagKey(env), `${space}\n${state}`, mac)) ? space : null;
}
