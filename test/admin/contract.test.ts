// Runs the operator API's route contracts (test/admin/contract.ts) on their own.
import { routeContract } from "../support/contract";
import { adminContracts } from "./contract";

for (const contract of adminContracts) routeContract(contract);
