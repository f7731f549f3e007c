module.exports = {
  displayName: 'integrity',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
