// Runs the analytics API's route contracts (test/analytics/contract.ts) on their own.
import { routeContract } from "../support/contract";
import { analyticsContracts } from "./contract";

for (const contract of analyticsContracts) routeContract(contract);
