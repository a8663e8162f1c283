// Runs the media library's route contracts (test/media/contract.ts) on their own.
import { routeContract } from "../support/contract";
import { mediaContracts } from "./contract";

for (const contract of mediaContracts) routeContract(contract);
