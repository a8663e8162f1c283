// A Vitest reporter for scripts/vitest.mjs: appends what a run does, as it happens, to the JSON-lines file
// named by VITEST_PROGRESS. The orchestrator reads it to see that the run is moving (a line per finished
// test), which files it has finished (so that a stalled run can be killed and only the rest run again),
// and the counts of every file for the report that scripts/test-summary.mjs reads. Vitest's own JSON
// reporter writes only when a run ends, which a stalled run never does.
import { appendFileSync } from "node:fs";

const FILE = process.env.VITEST_PROGRESS;
// Every record carries its time (`t`, ms since the epoch), so a run's timeline can be read back.
const write = (record) => FILE && appendFileSync(FILE, `${JSON.stringify({ ...record, t: Date.now() })}\n`);

export default class ProgressReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
    write({ event: "init" });
  }

  onTestRunStart(specifications) {
    write({ event: "queued", files: specifications.map((spec) => this.name(spec.moduleId)) });
  }

  onTestModuleStart(testModule) {
    write({ event: "start", file: this.name(testModule.moduleId), project: testModule.project.name });
  }

  onTestCaseResult() {
    write({ event: "test" });
  }

  onTestModuleEnd(testModule) {
    const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
    for (const test of testModule.children.allTests()) {
      const { state } = test.result();
      if (state === "passed" || state === "failed") counts[state] += 1;
      else if (test.options.mode === "todo") counts.todo += 1;
      else counts.skipped += 1;
    }
    const state = testModule.state();
    // A file that failed outside its tests (it did not load, a hook threw) counts as one failure.
    if (state === "failed" && counts.failed === 0) counts.failed = 1;
    write({
      event: "end",
      file: this.name(testModule.moduleId),
      project: testModule.project.name,
      state,
      ...counts,
    });
  }

  onTestRunEnd(_modules, unhandledErrors, reason) {
    write({ event: "done", reason, unhandledErrors: unhandledErrors.length });
  }

  name(moduleId) {
    return moduleId.startsWith(`${this.root}/`) ? moduleId.slice(this.root.length + 1) : moduleId;
  }
}
