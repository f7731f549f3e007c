module.exports = {
  displayName: 'verify',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
