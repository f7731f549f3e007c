const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  // Integration suites start services and talk to PostgreSQL and Kafka.
  testTimeout: 60_000,
  // Most suites wait on PostgreSQL, Kafka and HTTP rather than compute: on a 2-core machine the
  // default (cores - 1 = one worker) would run them one after another.
  maxWorkers: 2,
});
