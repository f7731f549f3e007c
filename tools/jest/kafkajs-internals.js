// Kafka suites (*.kafka-spec.ts) run kafkajs as the services run it: with the five internals that
// libs/platform/messaging replaces. Services install the replacements into Node's module cache when
// the messaging library loads; jest keeps a module registry of its own that never reads that cache,
// so without this file the suites would exercise stock kafkajs. Here the same replacements (same
// checks first: none when the installed kafkajs is not the expected release) are registered in
// jest's registry under kafkajs's own module paths, which is what kafkajs's relative `require`s
// resolve to. Runs before the suite's own imports.
const testPath = expect.getState().testPath ?? '';
if (/\.kafka-spec\.ts$/.test(testPath)) {
  const { kafkajsInternalsProblems, kafkajsReplacements } = require('../../libs/platform/messaging/src/kafkajs-internals');
  if (!kafkajsInternalsProblems.length) {
    for (const { path, replacement } of kafkajsReplacements()) {
      jest.mock(path, () => replacement(() => jest.requireActual(path)));
    }
  }
}
