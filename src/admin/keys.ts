// API keys and signing secrets: generated here, shown once, stored only as a hash or ciphertext.
import { randomToken, sha256Hex } from "../lib/crypto";

export const API_KEY_PREFIX = "spk_";
export const SIGNING_SECRET_PREFIX = "sps_";

export async function generateApiKey(): Promise<{ key: string; hash: string; prefix: string }> {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { key, hash: await sha256Hex(key), prefix: key.slice(0, 12) };
}

export const generateSigningSecret = () => `${SIGNING_SECRET_PREFIX}${randomToken(32)}`;
