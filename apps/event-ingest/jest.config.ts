export default {
  displayName: 'event-ingest',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
