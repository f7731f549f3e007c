import { getJestProjectsAsync } from '@nx/jest';

export default async () => ({
  projects: await getJestProjectsAsync(),
  // Integration suites start services and talk to PostgreSQL and Kafka.
  testTimeout: 60_000,
});
