// Runs the accounts routes' contracts (test/accounts/contract.ts) on their own.
import { routeContract } from "../support/contract";
import { accountsContracts } from "./contract";

for (const contract of accountsContracts) routeContract(contract);
