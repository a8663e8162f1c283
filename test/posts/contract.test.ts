// Runs the posts API's route contracts (test/posts/contract.ts) on their own.
import { routeContract } from "../support/contract";
import { postsContracts } from "./contract";

for (const contract of postsContracts) routeContract(contract);
