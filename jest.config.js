const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  // Integration suites start services and talk to PostgreSQL and Kafka.
  testTimeout: 60_000,
});
