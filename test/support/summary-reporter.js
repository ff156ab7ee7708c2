/**
 * Ends the run with one plain line CI systems can read: "tests: N passed, N failed, N skipped".
 * Written at process exit so it comes after jest's own summary.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } =
      results;
    const line = `tests: ${numPassedTests} passed, ${numFailedTests + numRuntimeErrorTestSuites} failed, ${numPendingTests + numTodoTests} skipped\n`;
    process.once('exit', () => process.stdout.write(line));
  }
}
module.exports = SummaryReporter;
