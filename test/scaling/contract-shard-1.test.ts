// Every route's contract again, for tenants placed in shard 1 (src/db/shards.ts), whose "other tenant"
// lives in shard 0: the service answers the same over either D1 database.
import { CONTRACTS } from "../contracts";
import { routeContract } from "../support/contract";

for (const contract of CONTRACTS) routeContract(contract, 1);
