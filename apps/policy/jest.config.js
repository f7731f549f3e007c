module.exports = {
  displayName: 'policy',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
