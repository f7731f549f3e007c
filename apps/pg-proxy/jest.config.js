module.exports = {
  displayName: 'pg-proxy',
  preset: '../../jest.preset.js',
  rootDir: '.',
};
