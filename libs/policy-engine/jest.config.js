module.exports = {
  displayName: 'policy-engine',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
