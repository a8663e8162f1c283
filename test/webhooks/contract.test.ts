// Runs the webhooks API's route contracts (test/webhooks/contract.ts) on their own.
import { routeContract } from "../support/contract";
import { webhooksContracts } from "./contract";

for (const contract of webhooksContracts) routeContract(contract);
