module.exports = {
  displayName: 'event-ingest',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
