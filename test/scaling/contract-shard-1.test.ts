// Every route's contract again, for tenants placed in shard 1 (src/db/shards.ts), whose "other tenant"
// lives in shard 0: the service answers the same over either D1 database. What the gate refuses before
// it opens the key's shard (no key, the rate window, the body's framing) runs in shard 0's pass only; an
// expired key and a key without the route's ability (the key is read from shard 1, then refused) run here
// on the first route of each ability, since which ability a route needs does not depend on the shard.
import { CONTRACTS } from "../contracts";
import { routeContract } from "../support/contract";

const abilitiesChecked = new Set<string>();
for (const contract of CONTRACTS) {
  const ability = contract.auth === "api" ? (contract.ability ?? "any") : null;
  const keyRules = ability !== null && !abilitiesChecked.has(ability);
  if (ability !== null) abilitiesChecked.add(ability);
  routeContract(contract, 1, "live", { keyRules });
}
