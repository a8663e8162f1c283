// Runs the delegation session endpoint's route contract (test/delegation/contract.ts) on its own.
import { routeContract } from "../support/contract";
import { delegationContracts } from "./contract";

for (const contract of delegationContracts) routeContract(contract);
